import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { distanceKm, roundKm } from "../../src/domain/geo/distance.ts";
import { fsaCentroid } from "../../src/domain/geo/fsaCentroids.ts";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * Finding the right broker (issue 13) over a small directory whose every figure is known:
 * near with distances, each sort, language, specialty, minRating, verified, facets, paging.
 */
let server: TestServer;
let key: string;

const M5V = fsaCentroid("M5V")!;
const ALPHA_TORONTO: [number, number] = [43.6425, -79.3871];
const BRAVO_MISSISSAUGA: [number, number] = [43.589, -79.6441];
const MAPLE_HAMILTON: [number, number] = [43.2557, -79.8711];
const MAPLE_TORONTO: [number, number] = [43.65, -79.38];
const km = (point: [number, number]) => roundKm(distanceKm(M5V, { lat: point[0], lng: point[1] }));

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  const alpha = insertBroker(db, {
    name: "Alpha Brokers", slug: "alpha", province: "ON", city: "Toronto", latLng: ALPHA_TORONTO,
    languages: ["English", "French"], specialties: ["Small business"], insuranceLines: ["Auto", "Home"],
  });
  const bravo = insertBroker(db, {
    name: "Bravo Insurance", slug: "bravo", province: "ON", city: "Mississauga", latLng: BRAVO_MISSISSAUGA,
    languages: ["English", "Punjabi"], isVerified: false, insuranceLines: ["Auto"],
  });
  const charlie = insertBroker(db, {
    name: "Charlie Assurances", slug: "charlie", province: "QC", city: "Montréal", latLng: [45.5148, -73.5739],
    languages: ["French"], insuranceLines: ["Home", "Life"],
  });
  insertBroker(db, {
    name: "Delta Insurance", slug: "delta", province: "ON", city: "Ottawa", latLng: [45.4215, -75.6972],
    description: "Ottawa brokerage; we also love maple syrup.", isVerified: false, insuranceLines: ["Commercial"],
  });
  const maple = insertBroker(db, {
    name: "Maple Leaf Brokers", slug: "maple", province: "ON", city: "Hamilton", latLng: MAPLE_HAMILTON,
    otherOffices: [{ province: "ON", city: "Toronto", latLng: MAPLE_TORONTO }], insuranceLines: ["Auto", "Life"],
  });
  insertBroker(db, { name: "Hidden Brokers", slug: "hidden", province: "ON", city: "Toronto", latLng: ALPHA_TORONTO, published: false });
  for (const rating of [5, 5, 4]) insertReview(db, { brokerId: alpha, rating });
  insertReview(db, { brokerId: bravo, rating: 3 });
  for (const rating of [4, 4]) insertReview(db, { brokerId: charlie, rating });
  insertReview(db, { brokerId: maple, rating: 5 });
});
afterAll(() => server.close());

interface Item { slug: string; averageRating: number; reviewCount: number; distanceKm?: number }
interface Answer { data: Item[]; pagination: { total: number }; facets?: Record<string, { value: string; count: number }[]>; error?: string }

async function search(query: string): Promise<{ status: number; body: Answer }> {
  const res = await server.request(`/api/v1/brokers?${query}`, { key });
  return { status: res.status, body: (await res.json()) as Answer };
}
const slugs = async (query: string) => (await search(query)).body.data.map((b) => b.slug);

describe("near", () => {
  test.each(["M5V 3L9", "m5v3l9", "M5V", "m5v"])("near=%s finds the brokers with an office within 25 km, each with its distance", async (near) => {
    const { status, body } = await search(`near=${encodeURIComponent(near)}`);
    expect(status).toBe(200);
    expect(body.data.map((b) => [b.slug, b.distanceKm])).toEqual([
      ["alpha", km(ALPHA_TORONTO)],
      ["bravo", km(BRAVO_MISSISSAUGA)],
      // Maple's Hamilton office is ~60 km away; its Toronto office is what counts.
      ["maple", km(MAPLE_TORONTO)],
    ]);
    expect(body.pagination.total).toBe(3);
  });

  test("radiusKm narrows and widens; without near no item has distanceKm", async () => {
    expect(await slugs("near=M5V&radiusKm=10")).toEqual(["alpha", "maple"]);
    expect(await slugs("near=M5V&radiusKm=400")).toEqual(["alpha", "bravo", "delta", "maple"]);
    // Montréal is ~503 km from M5V's centroid: just outside the largest radius.
    expect(distanceKm(M5V, { lat: 45.5148, lng: -73.5739 })).toBeGreaterThan(500);
    expect(await slugs("near=M5V&radiusKm=500")).toEqual(["alpha", "bravo", "delta", "maple"]);
    expect(await slugs("near=H2X&radiusKm=499.5")).toEqual(["charlie", "delta"]);
    expect((await search("limit=5")).body.data.every((b) => b.distanceKm === undefined)).toBe(true);
  });

  test("latitude,longitude works as a centre", async () => {
    const { body } = await search("near=45.5017,-73.5673&radiusKm=5");
    expect(body.data.map((b) => b.slug)).toEqual(["charlie"]);
    expect(body.data[0]!.distanceKm).toBeLessThan(5);
  });

  test("near combines with the other filters; a province that agrees is fine", async () => {
    expect(await slugs("near=M5V&province=ON&insuranceType=life")).toEqual(["maple"]);
    expect(await slugs("near=M5V&language=punjabi")).toEqual(["bravo"]);
  });
});

describe("sort", () => {
  test("distance: nearest office first", async () => {
    const distance: Record<string, number> = { alpha: km(ALPHA_TORONTO), bravo: km(BRAVO_MISSISSAUGA), maple: km(MAPLE_TORONTO) };
    expect(await slugs("near=M5V&sort=distance")).toEqual(["alpha", "bravo", "maple"].sort((a, b) => distance[a]! - distance[b]!));
  });

  test("rating: highest average first, ties by review count, then name; unreviewed last", async () => {
    expect(await slugs("sort=rating")).toEqual(["maple", "alpha", "charlie", "bravo", "delta"]);
  });

  test("reviews: most reviewed first, ties by name", async () => {
    expect(await slugs("sort=reviews")).toEqual(["alpha", "charlie", "bravo", "maple", "delta"]);
  });

  test("relevance: a match in the name outranks one in the description, whatever the alphabet says", async () => {
    expect(await slugs("q=maple&sort=relevance")).toEqual(["maple", "delta"]);
    expect(await slugs("q=maple")).toEqual(["delta", "maple"]);
  });

  test.each(["name", "rating", "reviews", "distance&near=M5V&radiusKm=500", "relevance&q=brokers"])(
    "sort=%s pages without repeating or skipping a broker",
    async (sort) => {
      const all = await slugs(`sort=${sort}&limit=100`);
      const paged: string[] = [];
      for (let page = 1; page <= 3; page++) paged.push(...(await slugs(`sort=${sort}&limit=2&page=${page}`)));
      expect(paged).toEqual(all);
      expect(new Set(paged).size).toBe(paged.length);
    },
  );
});

describe("filters", () => {
  test.each(["French", "fr", "français", "FRANCAIS"])("language=%s", async (language) => {
    expect(await slugs(`language=${encodeURIComponent(language)}`)).toEqual(["alpha", "charlie"]);
  });

  test("minRating keeps brokers at or above it (decimals allowed); 0 keeps everyone", async () => {
    expect(await slugs("minRating=4")).toEqual(["alpha", "charlie", "maple"]);
    expect(await slugs("minRating=4.67")).toEqual(["alpha", "maple"]);
    expect(await slugs("minRating=0")).toHaveLength(5);
  });

  test("verified=true and verified=false split the directory", async () => {
    expect(await slugs("verified=true")).toEqual(["alpha", "charlie", "maple"]);
    expect(await slugs("verified=false")).toEqual(["bravo", "delta"]);
  });

  test("specialty, case and accents ignored", async () => {
    expect(await slugs("specialty=SMALL%20business")).toEqual(["alpha"]);
    expect(await slugs("specialty=cottages")).toEqual([]);
  });

  test("language + minRating + verified combine", async () => {
    expect(await slugs("language=en&minRating=4&verified=true")).toEqual(["alpha", "maple"]);
  });
});

describe("facets", () => {
  test("each facet counts the brokers matching every other filter (drill-down), most first", async () => {
    const { body } = await search("province=ON&insuranceType=auto&facets=province,city,insuranceType,language");
    expect(body.data.map((b) => b.slug)).toEqual(["alpha", "bravo", "maple"]);
    // province ignores province=ON but keeps insuranceType=auto.
    expect(body.facets!.province).toEqual([{ value: "ON", count: 3 }]);
    // city keeps province=ON at office level: Maple counts in Hamilton and in Toronto.
    expect(body.facets!.city).toEqual([
      { value: "Toronto", count: 2 },
      { value: "Hamilton", count: 1 },
      { value: "Mississauga", count: 1 },
    ]);
    // insuranceType ignores insuranceType=auto but keeps province=ON.
    expect(body.facets!.insuranceType).toEqual([
      { value: "Auto", count: 3 },
      { value: "Home", count: 1 },
      { value: "Life", count: 1 },
      { value: "Commercial", count: 1 },
    ].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)));
    expect(body.facets!.language).toEqual([
      { value: "English", count: 3 },
      { value: "French", count: 1 },
      { value: "Punjabi", count: 1 },
    ]);
  });

  test("near a postal code, the province facet lists only that province (another would be refused)", async () => {
    const { body } = await search("near=M5V&radiusKm=500&facets=province");
    expect(body.facets!.province).toEqual([{ value: "ON", count: 4 }]);
  });

  test("a facet value's count is what selecting it returns", async () => {
    const { body } = await search("near=M5V&radiusKm=500&facets=province,language");
    for (const { value, count } of body.facets!.province!) {
      expect((await search(`near=M5V&radiusKm=500&province=${value}`)).body.pagination.total).toBe(count);
    }
    for (const { value, count } of body.facets!.language!) {
      expect((await search(`near=M5V&radiusKm=500&language=${value}`)).body.pagination.total).toBe(count);
    }
  });

  test("without facets the answer has none; data and pagination are unchanged by asking", async () => {
    const plain = await search("province=ON");
    const faceted = await search("province=ON&facets=city");
    expect(plain.body.facets).toBeUndefined();
    expect(faceted.body.data).toEqual(plain.body.data);
    expect(faceted.body.pagination).toEqual(plain.body.pagination);
  });
});

describe("bad input: 422 naming the parameter and the rule", () => {
  test.each([
    ["near=XYZ", "near: must be a Canadian postal code"],
    ["near=V0N", "near: the forward sortation area V0N is not in our postal-code data"],
    ["near=91,0", "near: latitude must be from -90 to 90"],
    ["near=M5V&radiusKm=0", "radiusKm: must be a number from 1 to 500"],
    ["near=M5V&radiusKm=abc", "radiusKm: must be a number from 1 to 500"],
    ["near=M5V&radiusKm=501", "radiusKm: must be a number from 1 to 500"],
    ["sort=distance", "sort: distance needs near"],
    ["sort=relevance", "sort: relevance needs q"],
    ["sort=best", "sort: must be one of name, rating, reviews, distance, relevance"],
    ["minRating=6", "minRating: must be a number from 0 to 5"],
    ["minRating=-1", "minRating: must be a number from 0 to 5"],
    ["minRating=NaN", "minRating: must be a number from 0 to 5"],
    ["facets=secret", 'facets: "secret" is not a facet'],
    ["facets=province,secret", 'facets: "secret" is not a facet'],
    ["verified=maybe", "verified: must be true or false"],
    ["near=M5V&province=QC", "near: M5V is in Ontario (ON), not in Quebec (QC)"],
    [`language=${"x".repeat(61)}`, "language: must be at most 60 characters"],
  ])("%s", async (query, message) => {
    const { status, body } = await search(query);
    expect(status).toBe(422);
    expect(body.error).toStartWith(message);
  });
});

describe("reviews: sort and star filter", () => {
  const reviewsOf = async (query: string) => {
    const res = await server.request(`/api/v1/reviews/${await idOf("alpha")}?${query}`, { key });
    return { status: res.status, body: (await res.json()) as { data: { rating: number; createdAt: string }[]; pagination: { total: number }; error?: string } };
  };
  const idOf = async (slug: string) => ((await (await server.request(`/api/v1/brokers/${slug}`, { key })).json()) as { data: { id: string } }).data.id;

  test("highest and lowest order by stars; rating keeps one star count, with its total", async () => {
    expect((await reviewsOf("sort=highest")).body.data.map((r) => r.rating)).toEqual([5, 5, 4]);
    expect((await reviewsOf("sort=lowest")).body.data.map((r) => r.rating)).toEqual([4, 5, 5]);
    const fives = await reviewsOf("rating=5");
    expect(fives.body.data.map((r) => r.rating)).toEqual([5, 5]);
    expect(fives.body.pagination.total).toBe(2);
    expect((await reviewsOf("rating=1")).body.pagination.total).toBe(0);
  });

  test.each([["rating=0", "rating: must be a whole number from 1 to 5"], ["rating=6", "rating: must be a whole number from 1 to 5"], ["rating=abc", "rating: must be a whole number from 1 to 5"], ["sort=best", "sort: must be one of newest, oldest, highest, lowest"]])(
    "%s is a 422",
    async (query, message) => {
      const { status, body } = await reviewsOf(query);
      expect(status).toBe(422);
      expect(body.error).toStartWith(message);
    },
  );
});
