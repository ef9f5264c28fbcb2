/**
 * Every published broker's detail is rendered once per load of the index into a mapped file
 * (src/storage/search/renderedDetails.ts, issue 30), and GET /api/v1/brokers/{slug} sends those
 * bytes when it has them. They must be exactly the bytes of the procedure's answer, for every
 * broker, and stay so after review writes (ratings applied in place: that broker's text is
 * forgotten) and a broker edit (a new load, rendered again); bad slugs are answered as before.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import type { DirectoryDb } from "../../src/storage/sqlite/database.ts";
import type { BrokerStore } from "../../src/storage/stores/brokerStore.ts";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let db: DirectoryDb;
let store: BrokerStore;
let key: string;
let wideId: number;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  db = server.app.services.db;
  store = server.app.services.brokers;
  wideId = insertBroker(db, {
    name: "Nguyễn 李 \"Quoted\" Assurances",
    slug: "nguyen-li-rendered",
    description: "Ωμέγα 🏠 line\nbreak, tab\t and \\ backslash",
    province: "QC",
    city: "Montréal",
    languages: ["Français", "Tiếng Việt"],
    otherOffices: [{ province: "ON", city: "Ottawa" }],
  });
});
afterAll(() => server.close());

const publishedSlugs = () => db.select({ slug: brokers.slug }).from(brokers).where(eq(brokers.published, true)).all().map((row) => row.slug);

/** What the procedure answers, in REST's envelope, written the plain way. */
const expectedBody = (slug: string) => JSON.stringify({ data: store.findBySlug(slug) });

/** Asks for a detail (which starts the rendering of a loaded index), then waits until `slug`'s is rendered. */
async function rendered(slug: string): Promise<void> {
  // A search brings the index to the directory's version and loads its attributes, as traffic would.
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  for (let tries = 0; tries < 500; tries++) {
    if (store.renderedDetail(slug) !== undefined) return;
    await Bun.sleep(10);
  }
  throw new Error(`${slug}'s detail was never rendered`);
}

async function detailText(slug: string): Promise<string> {
  const res = await server.request(`/api/v1/brokers/${encodeURIComponent(slug)}`, { key });
  expect(res.status).toBe(200);
  return res.text();
}

test("every published broker's rendered detail is the procedure's answer, byte for byte, and is what the API sends", async () => {
  const slugs = publishedSlugs();
  expect(slugs.length).toBeGreaterThan(250);
  await rendered(slugs[0]!);
  const decoder = new TextDecoder();
  for (const slug of slugs) {
    const text = store.renderedDetail(slug);
    expect(text).toBeDefined();
    expect(`{"data":${decoder.decode(text)}}`).toBe(expectedBody(slug));
    expect(await detailText(slug)).toBe(expectedBody(slug));
  }
  // Text beyond Latin-1, quotes, control characters: the same escapes JSON.stringify writes.
  expect(await detailText("nguyen-li-rendered")).toBe(expectedBody("nguyen-li-rendered"));
  expect(JSON.parse(await detailText("nguyen-li-rendered")).data.description).toBe("Ωμέγα 🏠 line\nbreak, tab\t and \\ backslash");
});

test("slugs that name no published broker, or are not slugs, are answered as the procedure answers them", async () => {
  await rendered("nguyen-li-rendered");
  insertBroker(db, { name: "Hidden Broker", slug: "hidden-rendered", province: "ON", city: "Ottawa", published: false });
  await rendered("nguyen-li-rendered");
  expect(store.renderedDetail("hidden-rendered")).toBeUndefined();
  expect((await server.request("/api/v1/brokers/hidden-rendered", { key })).status).toBe(404);
  expect((await server.request("/api/v1/brokers/NGUYEN-LI-RENDERED", { key })).status).toBe(404);
  const tooLong = await server.request(`/api/v1/brokers/${"a".repeat(201)}`, { key });
  expect(tooLong.status).toBe(422);
  expect(await tooLong.json()).toMatchObject({ error: expect.any(String) });
  // Trimmed by the procedure's schema, as before: the same broker, the same bytes.
  expect(await detailText(" nguyen-li-rendered ")).toBe(expectedBody("nguyen-li-rendered"));
  // A query string the schema ignores changes nothing either.
  const withQuery = await server.request("/api/v1/brokers/nguyen-li-rendered?utm_source=x", { key });
  expect(await withQuery.text()).toBe(expectedBody("nguyen-li-rendered"));
  // No key, or a key without brokers:read: refused before any rendered text is looked at.
  expect((await server.request("/api/v1/brokers/nguyen-li-rendered")).status).toBe(401);
  const noScope = await server.createKey({ scopes: ["quotes:write"] });
  expect((await server.request("/api/v1/brokers/nguyen-li-rendered", { key: noScope })).status).toBe(403);
});

test("a review forgets that broker's rendered text (its rating changed in place); an edit renders everything again", async () => {
  const slugs = publishedSlugs();
  await rendered("nguyen-li-rendered");
  const other = slugs.find((slug) => slug !== "nguyen-li-rendered")!;
  expect(store.renderedDetail(other)).toBeDefined();

  insertReview(db, { brokerId: wideId, rating: 2 });
  insertReview(db, { brokerId: wideId, rating: 5 });
  // The search brings the index to the new version: the ratings are applied in place.
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  const afterReviews = JSON.parse(await detailText("nguyen-li-rendered")).data;
  expect(afterReviews.rating).toMatchObject({ totalReviews: 2, distribution: { "1": 0, "2": 1, "3": 0, "4": 0, "5": 1 } });
  expect(await detailText("nguyen-li-rendered")).toBe(expectedBody("nguyen-li-rendered"));
  expect(store.renderedDetail("nguyen-li-rendered")).toBeUndefined();
  // The others keep theirs.
  expect(store.renderedDetail(other)).toBeDefined();
  expect(await detailText(other)).toBe(expectedBody(other));

  db.update(brokers).set({ email: "edited@rendered.ca", teamSize: "51-200" }).where(eq(brokers.id, wideId)).run();
  // Before the new load is rendered, the edit is answered all the same (built as before).
  const edited = JSON.parse(await detailText("nguyen-li-rendered")).data;
  expect(edited).toMatchObject({ email: "edited@rendered.ca", teamSize: "51-200" });
  await rendered("nguyen-li-rendered");
  expect(new TextDecoder().decode(store.renderedDetail("nguyen-li-rendered"))).toContain('"email":"edited@rendered.ca"');
  for (const slug of publishedSlugs()) expect(await detailText(slug)).toBe(expectedBody(slug));
});
