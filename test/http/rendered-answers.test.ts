/**
 * Answers the index keeps rendered as JSON text (src/storage/search/renderedAnswers.ts, issue
 * 30): every published broker's detail, rendered once per load of the index, sent by
 * GET /api/v1/brokers/{slug}; and a broker's first review page, kept as it is first answered
 * for the directory version it was read at, sent by GET /api/v1/reviews/{id}. They must be
 * exactly the bytes of the procedure's answer, for every broker, and stay so after review writes
 * (ratings applied in place: that broker's detail rendered again) and a broker edit (a new load,
 * rendered again once the directory is quiet); other pages and bad ids or slugs are answered as before.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import type { DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { RENDER_AFTER_QUIET_MS, type BrokerStore } from "../../src/storage/stores/brokerStore.ts";
import { SearchIndex } from "../../src/storage/search/searchIndex.ts";
import { DirectoryVersion } from "../../src/storage/sqlite/directoryVersion.ts";
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

test("a review renders that broker's detail again (its rating changed in place); an edit renders everything again", async () => {
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
  expect(`{"data":${new TextDecoder().decode(store.renderedDetail("nguyen-li-rendered"))}}`).toBe(expectedBody("nguyen-li-rendered"));
  // The others keep theirs.
  expect(store.renderedDetail(other)).toBeDefined();
  expect(await detailText(other)).toBe(expectedBody(other));

  db.update(brokers).set({ email: "edited@rendered.ca", teamSize: "51-200" }).where(eq(brokers.id, wideId)).run();
  // Before the new load is rendered, the edit is answered all the same (built as before).
  const edited = JSON.parse(await detailText("nguyen-li-rendered")).data;
  expect(edited).toMatchObject({ email: "edited@rendered.ca", teamSize: "51-200" });
  // After an edit, rendering waits for the directory to be quiet (edits often come in a row).
  const editedAt = performance.now();
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  await detailText("nguyen-li-rendered");
  await Bun.sleep(300);
  if (performance.now() - editedAt < RENDER_AFTER_QUIET_MS - 200) expect(store.renderedDetail("nguyen-li-rendered")).toBeUndefined();
  expect(JSON.parse(await detailText("nguyen-li-rendered")).data).toMatchObject({ email: "edited@rendered.ca" });
  await rendered("nguyen-li-rendered");
  expect(performance.now() - editedAt).toBeGreaterThanOrEqual(RENDER_AFTER_QUIET_MS - 50);
  expect(new TextDecoder().decode(store.renderedDetail("nguyen-li-rendered"))).toContain('"email":"edited@rendered.ca"');
  for (const slug of publishedSlugs()) expect(await detailText(slug)).toBe(expectedBody(slug));
});

/** A published broker with more than one page of published reviews (the most reviewed), and its id as the API writes it. */
function reviewedBroker(): string {
  const row = db.$client
    .query<{ id: number }, []>(
      "SELECT r.broker_id AS id FROM reviews r JOIN brokers b ON b.id = r.broker_id WHERE r.published = 1 AND b.published = 1 GROUP BY r.broker_id HAVING count(*) > 21 ORDER BY count(*) DESC LIMIT 1",
    )
    .get();
  expect(row).not.toBeNull();
  return String(row!.id);
}

async function reviewsText(path: string): Promise<string> {
  const res = await server.request(path, { key });
  expect(res.status).toBe(200);
  return res.text();
}

test("a broker's first review page is kept as first answered and sent again byte for byte; other pages never come from it", async () => {
  const id = reviewedBroker();
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  const first = await reviewsText(`/api/v1/reviews/${id}`);
  expect(new TextDecoder().decode(store.renderedReviewPage(id))).toBe(first);
  expect(await reviewsText(`/api/v1/reviews/${id}`)).toBe(first);
  // The same input written out in full is the same page.
  expect(await reviewsText(`/api/v1/reviews/${id}?page=1&limit=20&sort=newest`)).toBe(first);
  const firstIds = (JSON.parse(first) as { data: { id: string }[] }).data.map((review) => review.id);
  // Any other page, order, size or rating is answered by the procedure, never from the kept page.
  for (const query of ["page=2", "sort=oldest", "limit=10", "rating=5", "limit=21"]) {
    const other = JSON.parse(await reviewsText(`/api/v1/reviews/${id}?${query}`)) as { data: { id: string }[] };
    expect(other.data.map((review) => review.id)).not.toEqual(firstIds);
  }
  const second = JSON.parse(await reviewsText(`/api/v1/reviews/${id}?page=2`)) as { data: { id: string }[]; pagination: { page: number } };
  expect(second.pagination.page).toBe(2);
  expect(second.data.some((review) => firstIds.includes(review.id))).toBe(false);
});

test("any write to the directory, a review's text included, is in the next first page: kept pages hold for one version", async () => {
  const id = reviewedBroker();
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  const before = await reviewsText(`/api/v1/reviews/${id}`);
  expect(store.renderedReviewPage(id)).toBeDefined();
  const newest = (JSON.parse(before) as { data: { id: string }[] }).data[0]!.id;
  // An edit of a review's text changes no rating: only the directory's version says it happened.
  db.$client.run("UPDATE reviews SET body = 'Edited: the text changed, not the stars.' WHERE id = ?", [Number(newest)]);
  // A write made outside the stores is seen from the next turn of the event loop (MetaCounter).
  await new Promise((next) => setImmediate(next));
  expect(store.renderedReviewPage(id)).toBeUndefined();
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  const edited = await reviewsText(`/api/v1/reviews/${id}`);
  expect((JSON.parse(edited) as { data: { content: string }[] }).data[0]!.content).toBe("Edited: the text changed, not the stars.");
  expect(await reviewsText(`/api/v1/reviews/${id}`)).toBe(edited);
  insertReview(db, { brokerId: Number(id), rating: 1, body: "The newest of all.", createdAt: Date.UTC(2026, 10, 1) });
  await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
  const afterReview = JSON.parse(await reviewsText(`/api/v1/reviews/${id}`)) as { data: { content: string }[] };
  expect(afterReview.data[0]!.content).toBe("The newest of all.");
});

test("bad broker ids and keys without reviews:read are answered as before", async () => {
  const id = reviewedBroker();
  await reviewsText(`/api/v1/reviews/${id}`);
  for (const bad of ["abc", "0", "999999999", `${id}x`, "-1"]) {
    const res = await server.request(`/api/v1/reviews/${bad}`, { key });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
  }
  const badPage = await server.request(`/api/v1/reviews/${id}?page=0`, { key });
  expect(badPage.status).toBe(422);
  const noScope = await server.createKey({ scopes: ["brokers:read"] });
  expect((await server.request(`/api/v1/reviews/${id}`, { key: noScope })).status).toBe(403);
  expect((await server.request(`/api/v1/reviews/${id}`)).status).toBe(401);
});

test("a rendering that fails stops for that load: details are built as before, and nothing is tried again", () => {
  const version = new DirectoryVersion(db).current();
  let calls = 0;
  const index = new SearchIndex(db, undefined, () => {
    calls++;
    throw new Error("render failed");
  });
  index.warmAttributes(version);
  expect(index.detailsToRender(version)).toBe(true);
  expect(() => index.renderDetails(10)).toThrow("render failed");
  expect(calls).toBe(1);
  expect(index.detailsToRender(version)).toBe(false);
  expect(index.renderDetails(10)).toBe(false);
  expect(calls).toBe(1);
  expect(index.renderedDetail("nguyen-li-rendered", version)).toBeUndefined();
  expect(index.publishedDetail("nguyen-li-rendered", version)?.detail?.row.name).toBe('Nguyễn 李 "Quoted" Assurances');
});
