/**
 * The plain prepared statements behind a broker's detail and its lookup by id
 * (src/storage/stores/brokerLookups.ts) read exactly what drizzle's typed queries read, value for
 * value and type for type (JSON columns parsed, booleans, nulls), for every demo broker and for
 * one whose optional fields are all empty: the detail built from them (toBrokerDetail,
 * unchanged) is therefore the same answer, byte for byte.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, asc, desc, eq } from "drizzle-orm";
import { brokerLocations, brokers } from "../../db/schema.ts";
import { BrokerLookups } from "../../src/storage/stores/brokerLookups.ts";
import { insertBroker } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let lookups: BrokerLookups;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  const id = insertBroker(db, { name: "Bare Broker", slug: "bare-broker", province: "NU", city: "Iqaluit" });
  db.update(brokers).set({ phone: null, email: null, website: null, licenseNumber: null, foundingYear: null, averageRating: null }).where(eq(brokers.id, id)).run();
  db.update(brokerLocations).set({ phone: null, latitude: null, longitude: null }).where(eq(brokerLocations.brokerId, id)).run();
  insertBroker(db, { name: "Unlisted Broker", slug: "unlisted-broker", province: "ON", city: "Ottawa", published: false });
  lookups = new BrokerLookups(db.$client);
});
afterAll(() => server.close());

test("every published broker reads the same through the plain statements as through drizzle; unpublished and unknown read as absent", () => {
  const db = server.app.services.db;
  const all = db.select().from(brokers).all();
  expect(all.length).toBeGreaterThan(300);
  for (const broker of all) {
    const found = lookups.detail(broker.slug);
    const ref = lookups.ref(broker.id);
    if (!broker.published) {
      expect(found).toBeUndefined();
      expect(ref).toBeUndefined();
      continue;
    }
    // The operator's import key is not part of a profile: the lookups never read it.
    const { sortName: _s, published: _p, externalId: _e, ...expected } = broker;
    expect(found!.row).toStrictEqual({ ...expected });
    const offices = db.select().from(brokerLocations).where(eq(brokerLocations.brokerId, broker.id)).orderBy(desc(brokerLocations.isPrimary), asc(brokerLocations.id)).all();
    expect(found!.locations).toStrictEqual(offices);
    expect(ref).toStrictEqual({ id: broker.id, slug: broker.slug, name: broker.name, reviewCount: broker.reviewCount, r1: broker.rating1, r2: broker.rating2, r3: broker.rating3, r4: broker.rating4, r5: broker.rating5 });
  }
  expect(lookups.detail("no-such-broker")).toBeUndefined();
  expect(lookups.ref(123_456_789)).toBeUndefined();
});

test("the bare broker's detail answers its empty fields as the contract says (empty strings, 0, nulls)", async () => {
  const res = await server.request("/api/v1/brokers/bare-broker", { key });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: Record<string, unknown> & { locations: Record<string, unknown>[] } };
  expect(data).toMatchObject({ phone: "", email: "", website: "", foundingYear: 0, licenseNumber: null, averageRating: 0 });
  expect(data.locations[0]).toMatchObject({ phone: null, latitude: null, longitude: null, isPrimary: true });
  const published = server.app.services.db.select({ slug: brokers.slug }).from(brokers).where(and(eq(brokers.published, true), eq(brokers.slug, "bare-broker"))).all();
  expect(published).toHaveLength(1);
});
