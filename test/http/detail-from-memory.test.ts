/**
 * A broker's detail is answered from the search index's memory once its attributes are loaded
 * (src/storage/search/detailColumns.ts, issue 30: misses without a query). What it reads must be
 * exactly what the plain statements read from SQLite (BrokerLookups.detail), for every demo
 * broker and for hand-made ones at the edges: optional fields empty, text beyond Latin-1, an
 * office without phone or position, a second primary office, an unpublished broker; and after
 * review writes (ratings applied in place) and a broker edit (a rebuild).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokerLocations, brokers } from "../../db/schema.ts";
import { SearchIndex } from "../../src/storage/search/searchIndex.ts";
import { BrokerLookups, type DetailOffice } from "../../src/storage/stores/brokerLookups.ts";
import { DirectoryVersion } from "../../src/storage/sqlite/directoryVersion.ts";
import type { DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let db: DirectoryDb;
let key: string;
let bareId: number;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  db = server.app.services.db;
  bareId = insertBroker(db, { name: "Bare Broker", slug: "bare-broker", province: "NU", city: "Iqaluit" });
  db.update(brokers).set({ phone: null, email: null, website: null, licenseNumber: null, foundingYear: null, averageRating: null }).where(eq(brokers.id, bareId)).run();
  db.update(brokerLocations).set({ phone: null, latitude: null, longitude: null }).where(eq(brokerLocations.brokerId, bareId)).run();
  const wide = insertBroker(db, {
    name: "Nguyễn 李 Assurances Été",
    slug: "nguyen-li-assurances",
    description: "Ωμέγα 🏠 assurance habitation à Montréal",
    province: "QC",
    city: "Montréal",
    languages: ["Français", "Tiếng Việt"],
    specialties: ["Électricien"],
    latLng: [45.5, -73.56],
    otherOffices: [{ province: "QC", city: "Québec", latLng: [46.8, -71.2] }, { province: "ON", city: "Ottawa" }],
  });
  // Two primary offices (a hand-edited row): both come first, in id order, as SQLite sorts them.
  const [, second] = db.select({ id: brokerLocations.id }).from(brokerLocations).where(eq(brokerLocations.brokerId, wide)).orderBy(brokerLocations.id).all();
  db.update(brokerLocations).set({ isPrimary: true }).where(eq(brokerLocations.id, second!.id)).run();
  insertBroker(db, { name: "Unlisted Broker", slug: "unlisted-broker", province: "ON", city: "Ottawa", published: false });
});
afterAll(() => server.close());

/** What the index reads, in the lookups' terms: a stored null average reads as 0 in both details. */
function sqliteDetail(lookups: BrokerLookups, slug: string) {
  const found = lookups.detail(slug);
  if (!found) return undefined;
  const locations: DetailOffice[] = found.locations.map(({ id, address, city, province, postalCode, phone, latitude, longitude, isPrimary }) => ({
    id, address, city, province, postalCode, phone, latitude, longitude, isPrimary,
  }));
  return { row: { ...found.row, averageRating: found.row.averageRating ?? 0 }, locations };
}

/** A fresh index brought to the database's version with its attributes loaded (as the server warms it). */
function loadedIndex(): { index: SearchIndex; version: number } {
  const version = new DirectoryVersion(db).current();
  const index = new SearchIndex(db);
  index.warmAttributes(version);
  return { index, version };
}

function expectSameAsSqlite(index: SearchIndex, version: number): number {
  const lookups = new BrokerLookups(db.$client);
  let compared = 0;
  for (const { slug } of db.select({ slug: brokers.slug }).from(brokers).all()) {
    const fromMemory = index.publishedDetail(slug, version);
    expect(fromMemory).toBeDefined();
    expect(fromMemory!.detail).toStrictEqual(sqliteDetail(lookups, slug));
    compared++;
  }
  return compared;
}

test("every broker's detail reads the same from memory as from SQLite; unpublished and unknown slugs read as absent", () => {
  const { index, version } = loadedIndex();
  expect(expectSameAsSqlite(index, version)).toBeGreaterThan(300);
  expect(index.publishedDetail("unlisted-broker", version)).toEqual({ detail: undefined });
  for (const slug of ["no-such-broker", "", "BARE-BROKER", "bare-broker ", "bare-brokerx", "bare-broke"]) {
    expect(index.publishedDetail(slug, version)).toEqual({ detail: undefined });
  }
  // Not loaded at the version asked for: the caller must ask the database.
  expect(index.publishedDetail("bare-broker", version + 1)).toBeUndefined();
  expect(new SearchIndex(db).publishedDetail("bare-broker", version)).toBeUndefined();
});

test("after reviews (ratings applied in place) and a broker edit (a rebuild), memory still reads what SQLite reads", () => {
  const { index } = loadedIndex();
  insertReview(db, { brokerId: bareId, rating: 2 });
  insertReview(db, { brokerId: bareId, rating: 5 });
  const afterReviews = new DirectoryVersion(db).current();
  index.warmAttributes(afterReviews);
  expect(index.publishedDetail("bare-broker", afterReviews)!.detail!.row).toMatchObject({ reviewCount: 2, rating2: 1, rating5: 1, averageRating: 3.5 });
  expectSameAsSqlite(index, afterReviews);

  db.update(brokers).set({ email: "new@bare.ca", teamSize: "51-200" }).where(eq(brokers.id, bareId)).run();
  const afterEdit = new DirectoryVersion(db).current();
  index.warmAttributes(afterEdit);
  expect(index.publishedDetail("bare-broker", afterEdit)!.detail!.row).toMatchObject({ email: "new@bare.ca", teamSize: "51-200" });
  expectSameAsSqlite(index, afterEdit);
});

test("through the server, the detail of a broker with empty fields answers as the contract says, edited or not", async () => {
  // The server warms its index before listening: this answer comes from memory.
  const res = await server.request("/api/v1/brokers/nguyen-li-assurances", { key });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: Record<string, unknown> & { locations: Record<string, unknown>[] } };
  expect(data).toMatchObject({ name: "Nguyễn 李 Assurances Été", description: "Ωμέγα 🏠 assurance habitation à Montréal", languages: ["Français", "Tiếng Việt"] });
  expect(data.locations.map((l) => [l.city, l.isPrimary])).toEqual([["Montréal", true], ["Québec", true], ["Ottawa", false]]);
  expect(data.locations[2]).toMatchObject({ latitude: null, longitude: null });
  const missing = await server.request("/api/v1/brokers/unlisted-broker", { key });
  expect(missing.status).toBe(404);
});
