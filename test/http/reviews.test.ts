import { afterAll, beforeAll, expect, test } from "bun:test";
import { reviews, brokers } from "../../db/schema.ts";
import { eq } from "drizzle-orm";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let brokerId: number;
let hiddenId: number;

interface ReviewsBody {
  data: { id: string; brokerId: string; authorName: string; rating: number; title: string; content: string; createdAt: string }[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
  error?: string;
  code?: string;
}

const get = async (path: string) => {
  const res = await server.request(path, { key });
  return { status: res.status, body: (await res.json()) as ReviewsBody };
};

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  brokerId = insertBroker(db, { name: "Reviewed Brokers", slug: "reviewed-brokers", province: "QC", city: "Laval" });
  hiddenId = insertBroker(db, { name: "Hidden Reviewed", slug: "hidden-reviewed", province: "QC", city: "Laval", published: false });
  insertReview(db, { brokerId, rating: 5, authorName: "Marie Tremblay", createdAt: Date.UTC(2025, 2, 4, 17, 22, 5, 120), body: "<img src=x onerror=alert(1)>" });
  insertReview(db, { brokerId, rating: 3, authorName: "Jean-Luc de la Fontaine", createdAt: Date.UTC(2025, 5, 1) });
  insertReview(db, { brokerId, rating: 1, authorName: "Cher", createdAt: Date.UTC(2024, 0, 1) });
  insertReview(db, { brokerId, rating: 2, authorName: "Secret Person", published: false, createdAt: Date.UTC(2026, 0, 1) });
  insertReview(db, { brokerId: hiddenId, rating: 5 });
});
afterAll(() => server.close());

test("reviews come newest first with ISO 8601 UTC milliseconds and abbreviated authors", async () => {
  const { status, body } = await get(`/api/v1/reviews/${brokerId}`);
  expect(status).toBe(200);
  expect(body.data.map((r) => r.authorName)).toEqual(["Jean-Luc F.", "Marie T.", "Cher"]);
  expect(body.data[1]!.createdAt).toBe("2025-03-04T17:22:05.120Z");
  expect(body.data[1]!.content).toBe("<img src=x onerror=alert(1)>");
  expect(body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
  expect(Object.keys(body.data[0]!).sort()).toEqual(["authorName", "brokerId", "content", "createdAt", "id", "rating", "title"]);
  expect(body.data[0]).toMatchObject({ id: expect.stringMatching(/^[1-9]\d*$/), brokerId: String(brokerId) });
});

test("pages through reviews", async () => {
  const { body } = await get(`/api/v1/reviews/${brokerId}?page=2&limit=2`);
  expect(body.data.map((r) => r.authorName)).toEqual(["Cher"]);
  expect(body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
});

test.each([["unknown", "999999999"], ["unpublished", "HIDDEN"]])("an %s broker id is a 404", async (_, id) => {
  const { status, body } = await get(`/api/v1/reviews/${id === "HIDDEN" ? hiddenId : id}`);
  expect(status).toBe(404);
  expect(body.error).toContain("No published broker has the id");
});

// Spec 4.3: any broker_id that names no published broker is a 404, whatever its form.
test.each([["no-such-id"], ["reviewed-brokers"], ["-1"], ["0"], ["1.5"], ["0092"], ["9".repeat(40)], ["%20"], ["%F0%9F%9A%97"]])(
  "broker id %s is a 404 with a JSON error",
  async (id) => {
    const { status, body } = await get(`/api/v1/reviews/${id}`);
    expect(status).toBe(404);
    expect(Object.keys(body)).toEqual(["error", "code", "requestId", "docs"]);
    expect(body.code).toBe("broker_not_found");
    expect(body.error).toContain("No published broker has the id");
  },
);

test("a ?slug= beside the path's id is ignored: REST names the broker by id only", async () => {
  const { status, body } = await get(`/api/v1/reviews/${brokerId}?slug=no-such-broker`);
  expect(status).toBe(200);
  expect(body.pagination.total).toBe(3);
});

test("bad page and limit are 422s", async () => {
  expect((await get(`/api/v1/reviews/${brokerId}?limit=101`)).status).toBe(422);
  expect((await get(`/api/v1/reviews/${brokerId}?page=0`)).status).toBe(422);
});

test("rating aggregates follow writes to published reviews", async () => {
  const db = server.app.services.db;
  const before = (await (await server.request("/api/v1/brokers/reviewed-brokers", { key })).json()) as { data: { averageRating: number; reviewCount: number } };
  expect(before.data).toMatchObject({ averageRating: 3, reviewCount: 3 });
  db.update(reviews).set({ published: true }).where(eq(reviews.authorName, "Secret Person")).run();
  const after = (await (await server.request("/api/v1/brokers/reviewed-brokers", { key })).json()) as { data: { averageRating: number; reviewCount: number } };
  expect(after.data).toMatchObject({ averageRating: 2.75, reviewCount: 4 });
  const list = await get(`/api/v1/reviews/${brokerId}`);
  expect(list.body.pagination.total).toBe(4);
  expect(list.body.data[0]!.authorName).toBe("Secret P.");
});

test("every demo broker's aggregates equal its published reviews", () => {
  const client = server.app.services.db.$client;
  const mismatches = client
    .query(
      `SELECT b.id FROM brokers b LEFT JOIN (
         SELECT broker_id, count(*) AS n, round(avg(rating), 2) AS a FROM reviews WHERE published = 1 GROUP BY broker_id
       ) r ON r.broker_id = b.id
       WHERE b.review_count != coalesce(r.n, 0) OR coalesce(b.average_rating, -1) != coalesce(r.a, -1)`,
    )
    .all();
  expect(mismatches).toEqual([]);
  const totals = client.query("SELECT count(*) AS n FROM reviews").get() as { n: number };
  expect(totals.n).toBeGreaterThanOrEqual(3000);
  expect(db(server).select().from(brokers).all().length).toBeGreaterThanOrEqual(250);
});

const db = (s: TestServer) => s.app.services.db;

test("aggregates follow a rating change, an unpublish and a delete", async () => {
  const db = server.app.services.db;
  const id = insertBroker(db, { name: "Aggregate Brokers", slug: "aggregate-brokers", province: "ON", city: "Guelph" });
  const a = insertReview(db, { brokerId: id, rating: 5 });
  const b = insertReview(db, { brokerId: id, rating: 2 });
  insertReview(db, { brokerId: id, rating: 4 });
  const rating = async () =>
    ((await (await server.request("/api/v1/brokers/aggregate-brokers", { key })).json()) as { data: { rating: unknown } }).data.rating;
  expect(await rating()).toEqual({ averageRating: 3.67, totalReviews: 3, distribution: { "1": 0, "2": 1, "3": 0, "4": 1, "5": 1 } });
  db.update(reviews).set({ rating: 1 }).where(eq(reviews.id, a)).run();
  expect(await rating()).toEqual({ averageRating: 2.33, totalReviews: 3, distribution: { "1": 1, "2": 1, "3": 0, "4": 1, "5": 0 } });
  db.update(reviews).set({ published: false }).where(eq(reviews.id, b)).run();
  expect(await rating()).toEqual({ averageRating: 2.5, totalReviews: 2, distribution: { "1": 1, "2": 0, "3": 0, "4": 1, "5": 0 } });
  db.delete(reviews).where(eq(reviews.brokerId, id)).run();
  expect(await rating()).toEqual({ averageRating: 0, totalReviews: 0, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } });
});
