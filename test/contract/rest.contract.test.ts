import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUTO_QUOTE } from "../mcp/mcpSupport.ts";
import { insertBroker } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import * as spec from "./specFields.ts";

/**
 * The REST and embed surfaces against the specification's field tables (specFields.ts):
 * real requests to a real server over the demo directory. A renamed, retyped or dropped
 * field fails here with the field's path.
 */
let server: TestServer;
let key: string;
let embedKey: string;
const PARTNER = "https://partner.example";

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  embedKey = await server.createKey({ origins: [PARTNER], rateLimitPerMinute: 1_000_000 });
  insertBroker(server.app.services.db, { name: "Zz Unreviewed Brokers", slug: "zz-unreviewed", province: "PE", city: "Summerside" });
});
afterAll(() => server.close());

async function getJson(path: string, init: { key?: string; origin?: string } = { key: undefined }) {
  const res = await server.request(path, { key: init.key ?? key, headers: init.origin ? { Origin: init.origin } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function postJson(path: string, body: unknown, init: { key?: string; origin?: string } = {}) {
  const res = await server.request(path, {
    method: "POST",
    key: init.key ?? key,
    headers: { "Content-Type": "application/json", ...(init.origin ? { Origin: init.origin } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const { expectContract } = spec;
const records = (value: unknown) => value as Record<string, unknown>[];

describe("4.1 GET /brokers", () => {
  test("data is broker list items (2.1), pagination is 2.4 with totalPages = ceil(total / limit)", async () => {
    const { status, body } = await getJson("/api/v1/brokers?limit=100");
    expect(status).toBe(200);
    expectContract(body, spec.PAGED, "body");
    expectContract(body.pagination, spec.PAGINATION, "pagination");
    const pagination = body.pagination as { total: number; limit: number; totalPages: number };
    expect(pagination.totalPages).toBe(Math.ceil(pagination.total / pagination.limit));
    for (const [i, item] of records(body.data).entries()) expectContract(item, spec.BROKER_LIST_ITEM, `data[${i}]`);
  });

  test("a broker without reviews has averageRating 0, a number", async () => {
    const { body } = await getJson("/api/v1/brokers?q=unreviewed");
    const [item] = records(body.data);
    expectContract(item, spec.BROKER_LIST_ITEM, "data[0]");
    expect(item).toMatchObject({ averageRating: 0, reviewCount: 0 });
  });
});

describe("4.2 GET /brokers/{slug}", () => {
  test("data is a broker detail (2.2) with rating and locations as the spec says", async () => {
    const list = await getJson("/api/v1/brokers?province=QC&limit=5");
    for (const item of records(list.body.data)) {
      const { status, body } = await getJson(`/api/v1/brokers/${item.slug}`);
      expect(status).toBe(200);
      const detail = body.data as Record<string, unknown>;
      expectContract(detail, spec.BROKER_DETAIL, "data");
      expectContract(detail.rating, spec.BROKER_RATING, "data.rating");
      for (const [i, office] of records(detail.locations).entries()) expectContract(office, spec.BROKER_LOCATION, `data.locations[${i}]`);
      expect(detail.id).toBe(item.id as string);
      expect(["1-10", "11-50", "51-200", "201-500", "500+"]).toContain(detail.teamSize as string);
    }
  });
});

describe("4.3 GET /reviews/{broker_id}", () => {
  test("takes the broker's id (a string, as search gives it) and returns reviews (2.3) with pagination", async () => {
    const list = await getJson("/api/v1/brokers?limit=20");
    const reviewed = records(list.body.data).find((b) => (b.reviewCount as number) > 0)!;
    const { status, body } = await getJson(`/api/v1/reviews/${reviewed.id}`);
    expect(status).toBe(200);
    expectContract(body, spec.PAGED, "body");
    expectContract(body.pagination, spec.PAGINATION, "pagination");
    expect(records(body.data).length).toBeGreaterThan(0);
    for (const [i, review] of records(body.data).entries()) {
      expectContract(review, spec.REVIEW, `data[${i}]`);
      expect(review.createdAt as string).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  test.each(["no-such-id", "zz-unreviewed", "-1", "0", "9".repeat(40), "1e3", "0x10"])("broker_id %s names no broker: 404 {error}", async (id) => {
    const { status, body } = await getJson(`/api/v1/reviews/${id}`);
    expect(status).toBe(404);
    expectContract(body, spec.ERROR, "body");
  });
});

describe("4.4 POST /embed/quotes", () => {
  test("data is a quote result (2.5), insuranceType echoed, each quote as the spec lists", async () => {
    const { status, body } = await postJson("/api/v1/embed/quotes", { ...AUTO_QUOTE, insuranceType: "auto" }, { key: embedKey, origin: PARTNER });
    expect(status).toBe(201);
    const result = body.data as Record<string, unknown>;
    expectContract(result, spec.QUOTE_RESULT, "data");
    expect(result.insuranceType).toBe("auto");
    for (const [i, offer] of records(result.quotes).entries()) expectContract(offer, spec.QUOTE_OFFER, `data.quotes[${i}]`);
    expect(Number.isNaN(Date.parse(result.expiresAt as string))).toBe(false);
  });
});

describe("4.5 GET /embed/brokers", () => {
  test("data is embed broker items (2.6) and total an integer; no pagination object", async () => {
    const { status, body } = await getJson("/api/v1/embed/brokers?province=ON&limit=10", { key: embedKey, origin: PARTNER });
    expect(status).toBe(200);
    expectContract(body, spec.EMBED_BROKERS, "body");
    expect(body.pagination).toBeUndefined();
    for (const [i, item] of records(body.data).entries()) {
      expectContract(item, spec.EMBED_BROKER_ITEM, `data[${i}]`);
      expect(() => new URL(item.photoUrl as string)).not.toThrow();
    }
  });
});

describe("2.7 leads", () => {
  test("a stored lead carries the five lead fields as strings, notes included when none were given", async () => {
    const lead = { name: "Ana Souza", email: "ana@example.com", phone: "416 555 0199", insuranceType: "Home" };
    for (const [path, init] of [["/api/v1/leads", {}], ["/api/v1/embed/leads", { key: embedKey, origin: PARTNER }]] as const) {
      const { status, body } = await postJson(path, lead, init);
      expect(status).toBe(201);
      expectContract(body.data, spec.LEAD, `${path} data`);
    }
    const list = await getJson("/api/v1/leads");
    for (const [i, stored] of records(list.body.data).entries()) expectContract(stored, spec.LEAD, `data[${i}]`);
  });
});

describe("broker ids are one value everywhere", () => {
  test("search, detail, reviews and the embed list give the same string id for a broker", async () => {
    const { body } = await getJson("/api/v1/brokers?province=NU&limit=1");
    const item = records(body.data)[0]!;
    const detail = (await getJson(`/api/v1/brokers/${item.slug}`)).body.data as Record<string, unknown>;
    const embed = records((await getJson("/api/v1/embed/brokers?province=NU&limit=1", { key: embedKey, origin: PARTNER })).body.data)[0]!;
    expect(detail.id).toBe(item.id as string);
    expect(embed.id).toBe(item.id as string);
    const reviews = records((await getJson(`/api/v1/reviews/${item.id}`)).body.data);
    for (const review of reviews) expect(review.brokerId).toBe(item.id as string);
  });
});

describe("7 errors", () => {
  test.each([
    ["401 without a key", () => server.request("/api/v1/brokers"), 401],
    ["401 with an unknown key", () => server.request("/api/v1/brokers", { key: "brk_nope" }), 401],
    ["403 without the scope", async () => server.request("/api/v1/leads", { key: await server.createKey({ scopes: ["brokers:read"] }) }), 403],
    ["404 for an unpublished or unknown slug", () => server.request("/api/v1/brokers/no-such-broker", { key }), 404],
    ["422 for a page size over 100", () => server.request("/api/v1/brokers?limit=101", { key }), 422],
    ["429 past the rate limit", async () => {
      const limited = await server.createKey({ rateLimitPerMinute: 1 });
      await server.request("/api/v1/carriers", { key: limited });
      return server.request("/api/v1/carriers", { key: limited });
    }, 429],
  ] as const)("%s is {error: string}", async (_, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectContract(await res.json(), spec.ERROR, "body");
  });
});
