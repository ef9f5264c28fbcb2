import { afterAll, beforeAll, expect, test } from "bun:test";
import catalogue from "../../src/storage/stores/carriers.json" with { type: "json" };
import { loadCarriers } from "../../src/storage/stores/loadCarriers.ts";
import { PROVINCE_CODES } from "../../src/domain/provinces.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

interface Carrier { slug: string; name: string; lines: string[]; provinces: string[] }

async function list(query = ""): Promise<{ data: Carrier[]; total: number }> {
  const res = await server.request(`/api/v1/carriers${query}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as { data: Carrier[]; total: number };
}

test("exactly 30 carriers, seeded with the directory, with stable unique slugs", async () => {
  const { data, total } = await list();
  expect(total).toBe(30);
  expect(data).toHaveLength(30);
  expect(new Set(data.map((c) => c.slug)).size).toBe(30);
  expect(data.map((c) => c.name).sort()).toEqual(catalogue.carriers.map((c) => c.name).sort());
  expect(data.find((c) => c.name === "The Co-operators")!.slug).toBe("the-co-operators");
  expect(data.find((c) => c.name === "SGI CANADA")!.slug).toBe("sgi-canada");
  for (const carrier of data) {
    expect(carrier.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const p of carrier.provinces) expect(PROVINCE_CODES).toContain(p as never);
  }
});

test("filters by line and province", async () => {
  const { data } = await list("?insuranceType=tenant&province=Nunavut");
  expect(data.map((c) => c.slug)).toEqual(["aviva-canada", "intact-insurance", "td-insurance", "the-co-operators"]);
  const bad = await server.request("/api/v1/carriers?province=Atlantis", { key });
  expect(bad.status).toBe(422);
});

test("reseeding is a no-op when the catalogue is unchanged (caches stay valid)", () => {
  expect(loadCarriers(server.app.services.db)).toEqual({ carriers: 30, changed: false });
});

test("every quoted carrier comes from the catalogue and writes the line in the province", async () => {
  const carriers = new Map((await list()).data.map((c) => [c.slug, c]));
  const res = await server.request("/api/v1/embed/quotes", {
    key,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ insuranceType: "Condo", province: "BC", postalCode: "V6B 1A1", details: { yearBuilt: 2001, contentsValue: 50_000, claimsLast5Years: 0 } }),
  });
  const { data } = (await res.json()) as { data: { quotes: { carrier: string; carrierSlug: string }[] } };
  for (const offer of data.quotes) {
    const carrier = carriers.get(offer.carrierSlug)!;
    expect(carrier.name).toBe(offer.carrier);
    expect(carrier.lines).toContain("Condo");
    expect(carrier.provinces).toContain("BC");
  }
});
