import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ workspace: "embed", rateLimitPerMinute: 10_000 });
  const db = server.app.services.db;
  insertBroker(db, { name: "Zz <script>alert(1)</script> & \"Quotes\" Brokers", slug: "zz-hostile-name", province: "NU", city: "Iqaluit", insuranceLines: ["Marine", "Travel"] });
  insertBroker(db, { name: "Zz Hidden Brokers", slug: "zz-hidden", province: "NU", city: "Iqaluit", published: false });
  const reviewed = insertBroker(db, { name: "Zz Reviewed Brokers", slug: "zz-reviewed", province: "NU", city: "Iqaluit", insuranceLines: ["Auto"] });
  for (let i = 0; i < 7; i++) insertReview(db, { brokerId: reviewed, rating: 5 - (i % 3), authorName: `Reviewer Number${i}`, createdAt: Date.UTC(2025, 0, 1 + i) });
  insertReview(db, { brokerId: reviewed, rating: 1, published: false, createdAt: Date.UTC(2025, 6, 1) });
});
afterAll(() => server.close());

interface EmbedBroker { name: string; slug: string; city: string; province: string; averageRating: number | null; reviewCount: number; photoUrl: string; insuranceLines: string[] }
interface Failure { error: string }

async function getJson<T>(path: string, k = key): Promise<{ status: number; body: T }> {
  const res = await server.request(path, { key: k });
  return { status: res.status, body: (await res.json()) as T };
}

describe("GET /api/v1/embed/brokers", () => {
  test("12 by default, with total counting every match and no pagination object", async () => {
    const { status, body } = await getJson<{ data: EmbedBroker[]; total: number }>("/api/v1/embed/brokers");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["data", "total"]);
    expect(body.data).toHaveLength(12);
    const search = await getJson<{ pagination: { total: number } }>("/api/v1/brokers?limit=1");
    expect(body.total).toBe(search.body.pagination.total);
    for (const broker of body.data) {
      expect(Object.keys(broker).sort()).toEqual(["averageRating", "city", "id", "insuranceLines", "isVerified", "name", "photoUrl", "province", "reviewCount", "slug"]);
      expect(broker.photoUrl).toBe(`${server.url}/api/v1/embed/brokers/${broker.slug}/photo.svg`);
      expect(broker.insuranceLines.length).toBeGreaterThan(0);
    }
  });

  test("insuranceLines are each broker's own (one query for the page, matched by id)", async () => {
    const { body } = await getJson<{ data: EmbedBroker[] }>("/api/v1/embed/brokers?limit=5");
    for (const broker of body.data) {
      const detail = await getJson<{ data: { insuranceLines: string[] } }>(`/api/v1/brokers/${broker.slug}`);
      expect(broker.insuranceLines).toEqual(detail.body.data.insuranceLines);
    }
  });

  test("filters: province (code or name), city, insuranceType; only published brokers", async () => {
    const { body } = await getJson<{ data: EmbedBroker[]; total: number }>("/api/v1/embed/brokers?province=nunavut&city=IQALUIT&insuranceType=marine&limit=50");
    expect(body.data.map((b) => b.slug)).toContain("zz-hostile-name");
    expect(body.data.every((b) => b.province === "NU" && b.insuranceLines.includes("Marine"))).toBe(true);
    const all = await getJson<{ data: EmbedBroker[] }>("/api/v1/embed/brokers?city=Iqaluit&limit=50");
    expect(all.body.data.map((b) => b.slug)).not.toContain("zz-hidden");
  });

  test("limit: 1 to 50", async () => {
    expect((await getJson<{ data: unknown[] }>("/api/v1/embed/brokers?limit=50")).body.data).toHaveLength(50);
    for (const limit of ["0", "51", "abc"]) {
      const { status, body } = await getJson<Failure>(`/api/v1/embed/brokers?limit=${limit}`);
      expect(status).toBe(422);
      expect(body.error).toContain("limit: must be a whole number from 1 to 50");
    }
  });

  test("an unknown province is 422", async () => {
    const { status, body } = await getJson<Failure>("/api/v1/embed/brokers?province=Narnia");
    expect(status).toBe(422);
    expect(body.error).toContain('"Narnia" is not a Canadian province or territory');
  });

  test("brokers:read is needed", async () => {
    const k = await server.createKey({ scopes: ["reviews:read"] });
    const { status, body } = await getJson<Failure>("/api/v1/embed/brokers", k);
    expect(status).toBe(403);
    expect(body.error).toContain("brokers:read");
  });
});

describe("broker photos", () => {
  test("served without a key, as a cacheable SVG monogram", async () => {
    const res = await fetch(`${server.url}/api/v1/embed/brokers/zz-reviewed/photo.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("content-security-policy")).toStartWith("default-src 'none'");
    const svg = await res.text();
    expect(svg).toStartWith("<svg");
    expect(svg).toContain(">ZR</text>");
    const again = await fetch(`${server.url}/api/v1/embed/brokers/zz-reviewed/photo.svg`, { headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  test("the broker's name is XML-escaped: no markup of it survives", async () => {
    const svg = await (await fetch(`${server.url}/api/v1/embed/brokers/zz-hostile-name/photo.svg`)).text();
    expect(svg).not.toContain("<script");
    expect(svg).toContain("Zz &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Quotes&quot; Brokers");
    expect(svg.match(/<[a-z]+/g)).toEqual(["<svg", "<title", "<rect", "<text"]);
  });

  test("404 for an unpublished or unknown broker", async () => {
    for (const slug of ["zz-hidden", "no-such-broker"]) {
      const res = await fetch(`${server.url}/api/v1/embed/brokers/${slug}/photo.svg`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as Failure).error).toBe(`No published broker has the slug "${slug}".`);
    }
  });
});

describe("GET /api/v1/embed/reviews", () => {
  test("the broker's summary and its 5 latest published reviews by default", async () => {
    const { status, body } = await getJson<{ data: { broker: Record<string, unknown>; reviews: Record<string, unknown>[] } }>("/api/v1/embed/reviews?broker=zz-reviewed");
    expect(status).toBe(200);
    expect(body.data.broker).toEqual({
      id: expect.stringMatching(/^[1-9]\d*$/),
      name: "Zz Reviewed Brokers",
      slug: "zz-reviewed",
      averageRating: 4.14,
      reviewCount: 7,
      isVerified: true,
      photoUrl: `${server.url}/api/v1/embed/brokers/zz-reviewed/photo.svg`,
      distribution: expect.objectContaining({ "5": expect.any(Number) }),
    });
    expect(body.data.reviews).toHaveLength(5);
    expect(body.data.reviews.map((r) => r.createdAt)).toEqual([7, 6, 5, 4, 3].map((d) => new Date(Date.UTC(2025, 0, d)).toISOString()));
    expect(Object.keys(body.data.reviews[0]!).sort()).toEqual(["authorName", "content", "createdAt", "id", "rating", "title"]);
    expect(body.data.reviews[0]!.authorName).toBe("Reviewer N.");
  });

  test("limit up to 50; unpublished reviews never appear", async () => {
    const { body } = await getJson<{ data: { reviews: { rating: number }[] } }>("/api/v1/embed/reviews?broker=zz-reviewed&limit=50");
    expect(body.data.reviews).toHaveLength(7);
    const { status } = await getJson<Failure>("/api/v1/embed/reviews?broker=zz-reviewed&limit=51");
    expect(status).toBe(422);
  });

  test("404 for an unknown or unpublished broker, 422 without one", async () => {
    for (const slug of ["zz-hidden", "nope"]) {
      const { status, body } = await getJson<Failure>(`/api/v1/embed/reviews?broker=${slug}`);
      expect(status).toBe(404);
      expect(body.error).toBe(`No published broker has the slug "${slug}".`);
    }
    const { status, body } = await getJson<Failure>("/api/v1/embed/reviews");
    expect(status).toBe(422);
    expect(body.error).toContain("broker: is required");
  });
});
