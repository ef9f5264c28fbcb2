import { afterAll, beforeAll, expect, test } from "bun:test";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let id: number;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  insertBroker(db, { name: "Hidden Brokers", slug: "hidden-brokers", province: "ON", city: "Ottawa", published: false });
  id = insertBroker(db, {
    name: "Two Office Brokers",
    slug: "two-office-brokers",
    province: "AB",
    city: "Calgary",
    insuranceLines: ["Auto", "Farm"],
    otherOffices: [{ province: "SK", city: "Regina" }],
  });
  for (const rating of [5, 4, 4]) insertReview(db, { brokerId: id, rating });
  insertReview(db, { brokerId: id, rating: 1, published: false });
});
afterAll(() => server.close());

test("GET /api/v1/brokers/{slug} returns every detail field inside data", async () => {
  const res = await server.request("/api/v1/brokers/two-office-brokers", { key });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: Record<string, unknown> & { locations: Record<string, unknown>[] } };
  expect(Object.keys(data).sort()).toEqual(
    [
      "id", "name", "slug", "description", "province", "city", "averageRating", "reviewCount", "isVerified", "phone", "email", "website",
      "licenseNumber", "foundingYear", "teamSize", "insuranceLines", "specialties", "languages", "locations", "rating", "createdAt", "updatedAt",
    ].sort(),
  );
  expect(data.insuranceLines).toEqual(["Auto", "Farm"]);
  expect(data.locations).toHaveLength(2);
  expect(data.locations[0]).toMatchObject({ province: "AB", city: "Calgary", isPrimary: true });
  expect(data.locations[1]).toMatchObject({ province: "SK", city: "Regina", isPrimary: false });
  // Only the three published reviews count: (5 + 4 + 4) / 3.
  expect(data.rating).toEqual({ averageRating: 4.33, totalReviews: 3, distribution: { "1": 0, "2": 0, "3": 0, "4": 2, "5": 1 } });
  expect(data).toMatchObject({ id: String(id), foundingYear: 2001, teamSize: "11-50", isVerified: true, email: "info@two-office-brokers.ca" });
  expect(data.averageRating).toBe(4.33);
  expect(data.reviewCount).toBe(3);
  expect(data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test("a demo broker's detail agrees with its list item", async () => {
  const list = (await (await server.request("/api/v1/brokers?province=QC&limit=1", { key })).json()) as { data: Record<string, unknown>[] };
  const item = list.data[0]!;
  const { data } = (await (await server.request(`/api/v1/brokers/${item.slug}`, { key })).json()) as { data: Record<string, unknown> };
  for (const field of ["id", "name", "slug", "description", "province", "city", "averageRating", "reviewCount", "isVerified"]) expect(data[field]).toEqual(item[field]);
});

// A path that does not decode (%E0%A4%A) names no endpoint at all: not_found, not broker_not_found.
test.each([["hidden-brokers", "broker_not_found"], ["no-such-broker", "broker_not_found"], ["%F0%9F%9A%97", "broker_not_found"], ["%E0%A4%A", "not_found"]])("%s is a 404 with a JSON error", async (slug, code) => {
  const res = await server.request(`/api/v1/brokers/${slug}`, { key });
  expect(res.status).toBe(404);
  const body = (await res.json()) as { error: string; code: string };
  expect(typeof body.error).toBe("string");
  expect(Object.keys(body)).toEqual(["error", "code", "requestId", "docs"]);
  expect(body.code).toBe(code);
});

test("a broker without reviews has averageRating 0 (a number, never null) in its detail and list item", async () => {
  insertBroker(server.app.services.db, { name: "Quiet Brokers", slug: "quiet-brokers", province: "NS", city: "Truro", isVerified: false });
  const { data } = (await (await server.request("/api/v1/brokers/quiet-brokers", { key })).json()) as { data: Record<string, unknown> };
  expect(data).toMatchObject({ averageRating: 0, reviewCount: 0, isVerified: false, rating: { averageRating: 0, totalReviews: 0 } });
  const list = (await (await server.request("/api/v1/brokers?q=quiet&city=truro", { key })).json()) as { data: Record<string, unknown>[] };
  expect(list.data).toEqual([expect.objectContaining({ slug: "quiet-brokers", averageRating: 0, reviewCount: 0 })]);
});

test("an unpublished broker's 404 says no published broker has the slug", async () => {
  const body = (await (await server.request("/api/v1/brokers/hidden-brokers", { key })).json()) as { error: string };
  expect(body.error).toBe('No published broker has the slug "hidden-brokers".');
});

test("a slug longer than 200 characters is a 422 naming slug", async () => {
  const res = await server.request(`/api/v1/brokers/${"a".repeat(201)}`, { key });
  expect(res.status).toBe(422);
  expect(((await res.json()) as { error: string }).error).toBe("slug: must be at most 200 characters");
});
