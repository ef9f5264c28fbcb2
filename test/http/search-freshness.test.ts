import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokers, reviews } from "../../db/schema.ts";
import { searchBrokersInput } from "../../src/router/brokers/searchBrokers.ts";
import { BrokerStore } from "../../src/storage/stores/brokerStore.ts";
import { openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { describeSqliteOnly } from "../support/testDatabase.ts";

/**
 * A search right after a write sees the write (issue 11 and 13, target 4): the search index
 * applies review writes as a delta (new ratings in place, orders re-placed) and rebuilds for
 * anything else. What "correct" means: the answer after a write is, byte for byte, what an index
 * built from scratch on the written database answers. Writes come from another connection, as
 * the CLI or another process would make them.
 */

// SQLite only: a second connection writes the directory into the SQLite file at databasePath (over PostgreSQL the directory is written to PostgreSQL and replicated: the replica's own tests).
describeSqliteOnly("over SQLite", () => {
  let server: TestServer;
  let key: string;
  let writer: DirectoryDb;
  const ids = { alpha: 0, bravo: 0 };

  const QUERIES = [
    "sort=rating&facets=province,city,insuranceType,language",
    "sort=reviews&limit=3&page=2",
    "minRating=4&sort=rating&facets=language",
    "minRating=3.5&language=fr&verified=true&sort=rating",
    "near=M5V&radiusKm=100&sort=distance&facets=city,language",
    "near=M5V&radiusKm=100&minRating=4.5&sort=rating",
    "q=brokers&sort=relevance&facets=province",
    "q=brokers&minRating=4",
    "province=ON&facets=city&sort=rating&limit=2",
  ];

  beforeAll(async () => {
    server = await startTestServer({ demo: true });
    key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
    writer = openDatabase(server.databasePath);
    ids.alpha = insertBroker(writer, { name: "Alpha Fresh Brokers", slug: "alpha-fresh", province: "ON", city: "Toronto", latLng: [43.6425, -79.3871], languages: ["English", "French"] });
    ids.bravo = insertBroker(writer, { name: "Bravo Fresh Brokers", slug: "bravo-fresh", province: "ON", city: "Mississauga", latLng: [43.589, -79.6441] });
    insertReview(writer, { brokerId: ids.alpha, rating: 3 });
    insertReview(writer, { brokerId: ids.bravo, rating: 4 });
  });
  afterAll(async () => {
    writer.$client.close();
    await server.close();
  });

  interface Answer { data: { slug: string; averageRating: number; reviewCount: number; description: string; city: string }[]; pagination: { total: number }; facets?: unknown }

  async function search(query: string): Promise<Answer> {
    const res = await server.request(`/api/v1/brokers?${query}`, { key });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  }

  /** The same query answered by a store built now, from scratch, on the written database (input parsed as the router does). */
  function fromScratch(query: string): Pick<Answer, "data" | "pagination" | "facets"> {
    const { page, limit, ...filter } = searchBrokersInput.parse(Object.fromEntries(new URLSearchParams(query)));
    const answer = new BrokerStore(writer).search(filter, page, limit);
    return { data: answer.items as Answer["data"], pagination: { total: answer.total }, ...(answer.facets ? { facets: answer.facets } : {}) };
  }

  async function expectSameAsFromScratch(): Promise<void> {
    for (const query of QUERIES) {
      const answer = await search(query);
      const scratch = fromScratch(query);
      expect({ query, data: answer.data, total: answer.pagination.total, facets: answer.facets }).toEqual({
        query,
        data: scratch.data,
        total: scratch.pagination.total,
        facets: scratch.facets,
      });
    }
  }

  describe("a search right after a write", () => {
    test("before any write, the server answers as an index built from scratch", async () => {
      const near = await search("near=M5V&radiusKm=100&sort=distance");
      expect(near.data.map((b) => b.slug)).toContain("alpha-fresh");
      await expectSameAsFromScratch();
    });

    test("sees a new review: the broker's average, count, rating order and minRating filter move at once", async () => {
      // Build every per-version structure first (orders, near and text sets), then write.
      await expectSameAsFromScratch();
      const before = await search("q=fresh&sort=rating");
      expect(before.data.map((b) => [b.slug, b.averageRating, b.reviewCount])).toEqual([["bravo-fresh", 4, 1], ["alpha-fresh", 3, 1]]);

      for (const rating of [5, 5, 5]) insertReview(writer, { brokerId: ids.alpha, rating });
      const after = await search("q=fresh&sort=rating");
      expect(after.data.map((b) => [b.slug, b.averageRating, b.reviewCount])).toEqual([["alpha-fresh", 4.5, 4], ["bravo-fresh", 4, 1]]);
      expect((await search("q=fresh&minRating=4.5")).data.map((b) => b.slug)).toEqual(["alpha-fresh"]);
      await expectSameAsFromScratch();
    });

    test("sees a review unpublished and one deleted", async () => {
      const [latest] = writer.select({ id: reviews.id }).from(reviews).where(eq(reviews.brokerId, ids.alpha)).all().slice(-1);
      writer.update(reviews).set({ published: false }).where(eq(reviews.id, latest!.id)).run();
      expect((await search("q=alpha%20fresh")).data[0]).toMatchObject({ slug: "alpha-fresh", reviewCount: 3, averageRating: 4.33 });
      writer.delete(reviews).where(eq(reviews.brokerId, ids.bravo)).run();
      expect((await search("q=bravo%20fresh")).data[0]).toMatchObject({ slug: "bravo-fresh", reviewCount: 0, averageRating: 0 });
      await expectSameAsFromScratch();
    });

    test("sees a broker edit: a new language and a new name (which moves its alphabetical rank)", async () => {
      writer.update(brokers).set({ languages: ["English", "French", "Punjabi"] }).where(eq(brokers.id, ids.bravo)).run();
      expect((await search("q=fresh&language=punjabi")).data.map((b) => b.slug)).toEqual(["bravo-fresh"]);
      writer.update(brokers).set({ name: "Zulu Fresh Brokers", sortName: "zulu fresh brokers" }).where(eq(brokers.id, ids.alpha)).run();
      expect((await search("q=fresh")).data.map((b) => b.slug)).toEqual(["bravo-fresh", "alpha-fresh"]);
      // What a list item shows is held in memory too: a new description and primary city show at once.
      writer.update(brokers).set({ description: "Now in Brampton.", city: "Brampton" }).where(eq(brokers.id, ids.bravo)).run();
      expect((await search("q=bravo%20fresh")).data[0]).toMatchObject({ slug: "bravo-fresh", description: "Now in Brampton.", city: "Brampton" });
      await expectSameAsFromScratch();
    });

    test("sees a broker unpublished and published again", async () => {
      writer.update(brokers).set({ published: false }).where(eq(brokers.id, ids.bravo)).run();
      expect((await search("q=fresh")).data.map((b) => b.slug)).toEqual(["alpha-fresh"]);
      writer.update(brokers).set({ published: true }).where(eq(brokers.id, ids.bravo)).run();
      expect((await search("q=fresh")).data.map((b) => b.slug)).toEqual(["bravo-fresh", "alpha-fresh"]);
      await expectSameAsFromScratch();
    });

    test("sees a verification withdrawn and a new team size, in the list, the detail and the verified filter", async () => {
      const detail = async () => ((await (await server.request("/api/v1/brokers/alpha-fresh", { key })).json()) as { data: { isVerified: boolean; teamSize: string } }).data;
      writer.update(brokers).set({ isVerified: true, teamSize: "1-10" }).where(eq(brokers.id, ids.alpha)).run();
      expect(await detail()).toMatchObject({ isVerified: true, teamSize: "1-10" });
      expect((await search("q=alpha%20fresh&verified=true")).data.map((b) => b.slug)).toEqual(["alpha-fresh"]);
      // Answers are now cached for this version; only the columns changing must move it.
      writer.update(brokers).set({ isVerified: false }).where(eq(brokers.id, ids.alpha)).run();
      expect(await detail()).toMatchObject({ isVerified: false });
      expect((await search("q=alpha%20fresh&verified=true")).data).toEqual([]);
      writer.update(brokers).set({ teamSize: "51-200" }).where(eq(brokers.id, ids.alpha)).run();
      expect(await detail()).toMatchObject({ teamSize: "51-200" });
      await expectSameAsFromScratch();
    });

    test("sees thousands of reviews written at once (more than it applies one by one: it rebuilds)", async () => {
      writer.$client.transaction(() => {
        for (let i = 0; i < 2_500; i++) insertReview(writer, { brokerId: ids.bravo, rating: 1 + (i % 2) });
      })();
      expect((await search("q=bravo")).data.find((b) => b.slug === "bravo-fresh")).toMatchObject({ reviewCount: 2_500, averageRating: 1.5 });
      await expectSameAsFromScratch();
    });
  });

  describe("list items", () => {
    test("read from the in-memory index once it is loaded, they equal those read from the database", () => {
      const fromMemory = new BrokerStore(writer);
      fromMemory.warmDiscovery();
      // Searches that need no discovery attributes: a store that never loaded them reads items by id.
      const queries = ["", "q=assurance", "q=brokers&sort=relevance&page=2", "province=QC", "city=montreal&insuranceType=auto", "limit=100&page=3"];
      for (const query of queries) {
        const { page, limit, ...filter } = searchBrokersInput.parse(Object.fromEntries(new URLSearchParams(query)));
        const expected = new BrokerStore(writer).search(filter, page, limit);
        expect(expected.items.length).toBeGreaterThan(0);
        expect({ query, answer: fromMemory.search(filter, page, limit) }).toEqual({ query, answer: expected });
      }
    });
  });
});
