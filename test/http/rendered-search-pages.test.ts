/**
 * Search pages written from the list items the index keeps rendered (issue 30,
 * src/storage/search/renderedAnswers.ts `listItems`): GET /api/v1/brokers must send the bytes the
 * procedure's answer is written as, for every filter, order, page and size it serves this way,
 * stay so after reviews (ratings applied in place: the tails are written from them) and an edit
 * (a new load: answered by the procedure until it is rendered again); a search near a point,
 * with facets, or that the rules refuse is answered by the procedure as before.
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
    name: 'Nguyễn 李 "Quoted" Assurances',
    slug: "nguyen-li-search",
    description: 'Ωμέγα 🏠 line\nbreak, tab\t, \\ backslash and "averageRating":5',
    province: "QC",
    city: "Montréal",
    languages: ["Français"],
  });
});
afterAll(() => server.close());

/** A search the rendered path answers: until the index's list items are rendered, the first one starts the rendering. */
const probe = { sort: "name" as const };
async function itemsRendered(): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    await server.request("/api/v1/brokers?limit=1&sort=rating", { key });
    if (store.renderedSearch(probe, 1, 1, "", () => "") !== undefined) return;
    await Bun.sleep(10);
  }
  throw new Error("the list items were never rendered");
}

/** What the procedure answers to the same query, through tRPC (which never takes the rendered path), written as REST writes it. */
async function procedureText(query: Record<string, string | number>): Promise<string> {
  const input = encodeURIComponent(JSON.stringify({ json: query }));
  const res = await server.request(`/trpc/brokers.search?input=${input}`, { key });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { data: { json: unknown } } };
  return JSON.stringify(body.result.data.json);
}

async function restText(query: Record<string, string | number>): Promise<string> {
  const res = await server.request(`/api/v1/brokers?${new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]))}`, { key });
  expect(res.status).toBe(200);
  return res.text();
}

const queries: Record<string, string | number>[] = [
  {},
  { province: "ON" },
  { province: "ON", limit: 100 },
  { province: "QC", page: 2, limit: 3 },
  { city: "Montréal" },
  { q: "Nguyễn" },
  { q: "assurances", sort: "relevance" },
  { q: "insurance", page: 2, limit: 5, sort: "rating" },
  { insuranceType: "Auto", sort: "reviews" },
  { language: "Français", minRating: 3 },
  { verified: "true", limit: 7 },
  { province: "ON", page: 5000, limit: 20 }, // past the last page: no items
  { q: "zzzznothing" },
];

test("every page the rendered path answers is the procedure's answer, byte for byte", async () => {
  await itemsRendered();
  for (const query of queries) {
    const filter = Object.fromEntries(Object.entries(query).filter(([name]) => name !== "page" && name !== "limit"));
    // The rendered path answers these (asserted, so this test cannot pass on the procedure alone).
    expect(store.renderedSearch({ sort: "name", ...filter } as never, 1, 20, "", () => "")).toBeDefined();
    expect(await restText(query)).toBe(await procedureText(query));
  }
  const wide = JSON.parse(await restText({ q: "Nguyễn" })) as { data: { id: string; name: string; description: string }[] };
  expect(wide.data.map((item) => item.id)).toContain(String(wideId));
  expect(wide.data.find((item) => item.id === String(wideId))!.description).toBe('Ωμέγα 🏠 line\nbreak, tab\t, \\ backslash and "averageRating":5');
});

test("searches near a point, with facets, or refused by the rules are answered by the procedure as before", async () => {
  await itemsRendered();
  const near = JSON.parse(await restText({ near: "M5V 3L9", radiusKm: 50 })) as { data: { distanceKm?: number }[] };
  expect(near.data.length).toBeGreaterThan(0);
  expect(near.data.every((item) => typeof item.distanceKm === "number")).toBe(true);
  const faceted = JSON.parse(await restText({ province: "ON", facets: "city,language" })) as { facets?: Record<string, unknown> };
  expect(Object.keys(faceted.facets ?? {})).toEqual(["city", "language"]);
  expect(await restText({ province: "ON", facets: "city" })).toBe(await procedureText({ province: "ON", facets: "city" }));
  const refused = await server.request("/api/v1/brokers?sort=relevance", { key });
  expect(refused.status).toBe(422);
  expect(await refused.json()).toMatchObject({ error: expect.stringContaining("relevance needs q") });
  const badPage = await server.request("/api/v1/brokers?page=0", { key });
  expect(badPage.status).toBe(422);
  expect(await badPage.json()).toMatchObject({ error: expect.any(String) });
  // No key, or a key without brokers:read: refused before any rendered text is looked at.
  expect((await server.request("/api/v1/brokers?province=ON")).status).toBe(401);
  const noScope = await server.createKey({ scopes: ["quotes:write"] });
  expect((await server.request("/api/v1/brokers?province=ON", { key: noScope })).status).toBe(403);
});

test("reviews show in the next page at once (tails from the ratings in place); an edit is answered before it is rendered again", async () => {
  await itemsRendered();
  const query = { q: "Nguyễn" };
  insertReview(db, { brokerId: wideId, rating: 2 });
  insertReview(db, { brokerId: wideId, rating: 5 });
  const afterReviews = JSON.parse(await restText(query)) as { data: { id: string; reviewCount: number; averageRating: number }[] };
  expect(afterReviews.data.find((item) => item.id === String(wideId))).toMatchObject({ reviewCount: 2, averageRating: 3.5 });
  expect(store.renderedSearch({ sort: "name", q: "Nguyễn" }, 1, 20, "", () => "")).toBeDefined();
  expect(await restText(query)).toBe(await procedureText(query));
  expect(await restText({ sort: "rating", limit: 100 })).toBe(await procedureText({ sort: "rating", limit: 100 }));

  db.update(brokers).set({ name: 'Nguyễn 李 "Renamed" Assurances' }).where(eq(brokers.id, wideId)).run();
  const edited = JSON.parse(await restText(query)) as { data: { id: string; name: string }[] };
  expect(edited.data.find((item) => item.id === String(wideId))!.name).toBe('Nguyễn 李 "Renamed" Assurances');
  expect(await restText(query)).toBe(await procedureText(query));
  await itemsRendered();
  expect(await restText(query)).toBe(await procedureText(query));
  expect(await restText({ province: "QC", limit: 100 })).toBe(await procedureText({ province: "QC", limit: 100 }));
});
