/**
 * Issue 29: GET /api/v1/embed/brokers/{slug}, the directory widget's broker profile (an embed
 * key may not read /api/v1/brokers/{slug}), and GET /api/v1/embed/reviews paging (Show more).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const PARTNER = "https://partner.example";
let server: TestServer;
let embedKey: string;

beforeAll(async () => {
  server = await startTestServer();
  embedKey = await server.createKey({ workspace: "profile", origins: [PARTNER], scopes: ["brokers:read", "reviews:read", "quotes:write", "leads:write"], rateLimitPerMinute: 10_000 });
  const db = server.app.services.db;
  const reviewed = insertBroker(db, { name: "Zz Profile Brokers", slug: "zz-profile", province: "NU", city: "Iqaluit", insuranceLines: ["Auto", "Home"] });
  for (let i = 0; i < 12; i++) insertReview(db, { brokerId: reviewed, rating: i % 2 === 0 ? 5 : 4, authorName: `Reviewer Number${i}`, createdAt: Date.UTC(2025, 0, 1 + i) });
  // Primary office in London, ON; a second one in Toronto: a Toronto search measures to the second.
  insertBroker(db, {
    name: "Zz Two Cities Brokers",
    slug: "zz-two-cities",
    province: "ON",
    city: "London",
    latLng: [42.9849, -81.2453],
    otherOffices: [{ province: "ON", city: "Toronto", latLng: [43.6532, -79.3832] }],
  });
  insertBroker(db, { name: "Zz Hidden Profile", slug: "zz-hidden-profile", province: "NU", city: "Iqaluit", published: false });
});
afterAll(() => server.close());

const get = (path: string) => server.request(path, { key: embedKey, headers: { Origin: PARTNER } });

describe("GET /api/v1/embed/brokers/{slug}", () => {
  test("an embed key reads the spec's 2.2 detail fields, the picture and a map link per office, with CORS", async () => {
    const res = await get("/api/v1/embed/brokers/zz-profile");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(PARTNER);
    const { data } = (await res.json()) as { data: Record<string, unknown> & { rating: Record<string, unknown>; locations: Record<string, unknown>[] } };
    for (const field of ["id", "name", "slug", "email", "phone", "website", "description", "foundingYear", "teamSize", "isVerified", "insuranceLines", "specialties", "languages", "photoUrl"]) {
      expect(data).toHaveProperty(field);
    }
    expect(data.rating).toMatchObject({ totalReviews: 12, distribution: { "5": 6, "4": 6 } });
    expect(data.locations.length).toBeGreaterThan(0);
    expect(data.locations[0]!.isPrimary).toBe(true);
    for (const office of data.locations) {
      for (const field of ["province", "city", "address", "postalCode", "isPrimary"]) expect(office).toHaveProperty(field);
      expect(String(office.mapUrl)).toStartWith("https://www.openstreetmap.org/");
    }
    expect(data.photoUrl).toBe(`${server.url}/api/v1/embed/brokers/zz-profile/photo.svg`);
  });

  test("an unpublished or unknown broker is a 404 broker_not_found", async () => {
    for (const slug of ["zz-hidden-profile", "no-such-broker"]) {
      const res = await get(`/api/v1/embed/brokers/${slug}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe("broker_not_found");
    }
  });

  test("the picture's path still answers the picture", async () => {
    const res = await server.request("/api/v1/embed/brokers/zz-profile/photo.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("svg");
  });
});

describe("GET /api/v1/embed/reviews pages", () => {
  test("page 2 continues page 1, and total says how many match", async () => {
    const first = (await (await get("/api/v1/embed/reviews?broker=zz-profile&limit=5")).json()) as { data: { reviews: { id: string }[]; total: number } };
    const second = (await (await get("/api/v1/embed/reviews?broker=zz-profile&limit=5&page=2")).json()) as { data: { reviews: { id: string }[]; total: number } };
    const third = (await (await get("/api/v1/embed/reviews?broker=zz-profile&limit=5&page=3")).json()) as { data: { reviews: { id: string }[]; total: number } };
    expect(first.data.total).toBe(12);
    expect([first, second, third].map((p) => p.data.reviews.length)).toEqual([5, 5, 2]);
    const ids = [first, second, third].flatMap((p) => p.data.reviews.map((r) => r.id));
    expect(new Set(ids).size).toBe(12);
  });

  test("with a star filter, total counts only those reviews", async () => {
    const res = (await (await get("/api/v1/embed/reviews?broker=zz-profile&limit=5&rating=4")).json()) as { data: { total: number } };
    expect(res.data.total).toBe(6);
  });
});

describe("a near search names the office it measured to", () => {
  test("London's broker on a Toronto search: the card's distance is to its Toronto office, and says so", async () => {
    const res = await get("/api/v1/embed/brokers?q=two%20cities&near=43.6532,-79.3832&radiusKm=50&limit=5");
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { slug: string; city: string; distanceKm?: number; nearestOffice?: { city: string; province: string } }[] };
    const card = data.find((b) => b.slug === "zz-two-cities");
    expect(card).toBeDefined();
    expect(card!.city).toBe("London");
    expect(card!.distanceKm).toBeLessThan(1);
    expect(card!.nearestOffice).toEqual({ city: "Toronto", province: "ON" });
  });

  test("without near there is no nearestOffice", async () => {
    const { data } = (await (await get("/api/v1/embed/brokers?q=two%20cities&limit=5")).json()) as { data: Record<string, unknown>[] };
    expect(data.length).toBeGreaterThan(0);
    for (const card of data) expect(card).not.toHaveProperty("nearestOffice");
  });
});
