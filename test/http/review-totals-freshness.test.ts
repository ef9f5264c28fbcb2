import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import { BrokerStore } from "../../src/storage/stores/brokerStore.ts";
import { openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { describeSqliteOnly } from "../support/testDatabase.ts";

/**
 * A reviews page by broker id finds the broker (published or not, its review and star counts)
 * in the search index once the index holds the current version, and in the database otherwise
 * (BrokerStore.findById). Either way the answer is the database's: the page's total moves with
 * each review written, and a broker unpublished is not found, on the very next request.
 * Writes come from another connection, as the CLI or another process would make them.
 */
describeSqliteOnly("over SQLite", () => {
  let server: TestServer;
  let key: string;
  let writer: DirectoryDb;
  let brokerId = 0;

  beforeAll(async () => {
    server = await startTestServer({ demo: true });
    key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
    writer = openDatabase(server.databasePath);
    brokerId = insertBroker(writer, { name: "Totals Fresh Brokers", slug: "totals-fresh", province: "ON", city: "Toronto", latLng: [43.6425, -79.3871] });
    for (const rating of [5, 4, 5]) insertReview(writer, { brokerId, rating });
  });
  afterAll(async () => {
    writer.$client.close();
    await server.close();
  });

  /** A discovery search: brings the index to the current version with its attributes loaded (the in-memory path). */
  async function refreshIndex(): Promise<void> {
    const res = await server.request("/api/v1/brokers?q=totals&sort=rating&facets=province", { key });
    expect(res.status).toBe(200);
  }

  async function totalOf(query = ""): Promise<number> {
    const res = await server.request(`/api/v1/reviews/${brokerId}${query}`, { key });
    expect(res.status).toBe(200);
    return ((await res.json()) as { pagination: { total: number } }).pagination.total;
  }

  const reviewsStatus = async () => (await server.request(`/api/v1/reviews/${brokerId}`, { key })).status;

  test("the totals by star follow reviews written elsewhere, whether the index has caught up or not", async () => {
    await refreshIndex();
    expect([await totalOf(), await totalOf("?rating=5"), await totalOf("?rating=4"), await totalOf("?rating=1")]).toEqual([3, 2, 1, 0]);

    for (const rating of [5, 5, 1]) insertReview(writer, { brokerId, rating });
    // No search in between: the index is a version behind, so the database answers.
    expect([await totalOf(), await totalOf("?rating=5"), await totalOf("?rating=1")]).toEqual([6, 4, 1]);
    // A search applies the new ratings to the index: now it answers, with the same totals.
    await refreshIndex();
    expect([await totalOf(), await totalOf("?rating=5"), await totalOf("?rating=4"), await totalOf("?rating=1")]).toEqual([6, 4, 1, 1]);
  });

  test("a broker unpublished elsewhere is not found on the next request, and found again once published", async () => {
    await refreshIndex();
    expect(await reviewsStatus()).toBe(200);
    writer.update(brokers).set({ published: false }).where(eq(brokers.id, brokerId)).run();
    expect(await reviewsStatus()).toBe(404);
    await refreshIndex();
    expect(await reviewsStatus()).toBe(404);
    writer.update(brokers).set({ published: true }).where(eq(brokers.id, brokerId)).run();
    expect(await reviewsStatus()).toBe(200);
    await refreshIndex();
    expect(await totalOf("?rating=5")).toBe(4);
  });

  test("every lookup by id from the index equals the database's, for published, unpublished and unknown ids", () => {
    const ids = writer.select({ id: brokers.id }).from(brokers).all().map((b) => b.id);
    writer.update(brokers).set({ published: false }).where(eq(brokers.id, ids[0]!)).run();
    try {
      const fromIndex = new BrokerStore(writer);
      fromIndex.warmDiscovery();
      const fromDatabase = new BrokerStore(writer);
      const asked = [...ids, Math.max(...ids) + 1, 999_999_999].map(String);
      const answers = (store: BrokerStore) => asked.map((id) => [id, store.findById(id) ?? null]);
      const expected = answers(fromDatabase);
      // The demo directory has unpublished brokers of its own, besides the one unpublished here.
      expect(expected.filter(([, found]) => found === null).length).toBeGreaterThanOrEqual(3);
      expect(expected.find(([id]) => id === String(ids[0]))?.[1]).toBeNull();
      expect(expected.filter(([, found]) => found !== null).length).toBeGreaterThan(100);
      expect(answers(fromIndex)).toEqual(expected);
    } finally {
      writer.update(brokers).set({ published: true }).where(eq(brokers.id, ids[0]!)).run();
    }
  });
});
