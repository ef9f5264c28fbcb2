import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCarriers } from "../../src/storage/stores/loadCarriers.ts";
import { loadDirectory } from "../../src/demo/loadDirectory.ts";
import { loadDemoDirectoryPg, loadDirectoryPg } from "../../src/demo/loadDirectoryPg.ts";
import { loadCarriersPg } from "../../src/storage/pg/loadCarriersPg.ts";
import { createLogger } from "../../src/log.ts";
import { BrokerStore, type BrokerFilter } from "../../src/storage/stores/brokerStore.ts";
import { CarrierStore } from "../../src/storage/stores/carrierStore.ts";
import { openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { DirectoryReplica } from "../../src/storage/pg/directoryReplica.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";

const DIRECTORY = { brokers: 150, reviewsPerBroker: 6, seed: 41 };
const log = createLogger("error");

/** Every row of a directory table, in a stable order, as SQLite stores it. */
function rows(db: DirectoryDb, table: string, order: string): unknown[] {
  return db.$client.query(`SELECT * FROM ${table} ORDER BY ${order}`).all();
}

describe("seed into PostgreSQL, read through a replica", () => {
  let database: PgTestDatabase;
  let replica: DirectoryReplica;
  let direct: DirectoryDb;
  let dir: string;

  beforeAll(async () => {
    database = await createPgTestDatabase();
    await loadDirectoryPg(database.pg, DIRECTORY);
    await loadCarriersPg(database.pg);
    replica = await DirectoryReplica.open(database.pg, { log });
    // The same directory seeded straight into SQLite, as without DATABASE_URL.
    dir = mkdtempSync(join(tmpdir(), "pgreplica-direct-"));
    direct = openDatabase(join(dir, "direct.db"));
    migrate(direct);
    loadDirectory(direct, DIRECTORY);
    loadCarriers(direct);
  });

  afterAll(async () => {
    await replica?.close();
    direct?.$client.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  test("the replica holds exactly the rows a direct SQLite seed writes, aggregates included", () => {
    expect(replica.ready).toBe(true);
    for (const [table, order] of [["brokers", "id"], ["broker_locations", "id"], ["broker_lines", "broker_id, line_key"], ["reviews", "id"], ["carriers", "slug"]] as const) {
      const expected = rows(direct, table, order);
      expect(expected.length).toBeGreaterThan(0);
      expect({ table, rows: rows(replica.db, table, order) }).toEqual({ table, rows: expected });
    }
  });

  test("search, detail and reviews answer the same from the replica as from SQLite", () => {
    const fromReplica = new BrokerStore(replica.db);
    const fromSqlite = new BrokerStore(direct);
    const filters: BrokerFilter[] = [
      {},
      { sort: "rating" },
      { sort: "reviews", province: "ON" },
      { insuranceType: "auto", minRating: 3, facets: ["province", "insuranceType"] },
      { near: { lat: 45.5, lng: -73.6 }, radiusKm: 200, sort: "distance" },
      { q: "insurance", sort: "relevance" },
    ];
    for (const filter of filters) {
      const expected = fromSqlite.search(filter, 1, 50);
      expect({ filter, found: expected.total > 0 }).toEqual({ filter, found: true });
      expect(fromReplica.search(filter, 1, 50)).toEqual(expected);
    }
    const slugs = (direct.$client.query("SELECT slug FROM brokers ORDER BY id").all() as { slug: string }[]).map((r) => r.slug);
    for (const slug of slugs) {
      const expected = fromSqlite.findBySlug(slug);
      expect(fromReplica.findBySlug(slug)).toEqual(expected);
      const ref = fromSqlite.findById(String(expected?.id ?? "0"));
      if (ref) expect(fromReplica.reviewsOf(ref, 1, 20, { sort: "lowest" })).toEqual(fromSqlite.reviewsOf(ref, 1, 20, { sort: "lowest" }));
    }
    expect(new CarrierStore(replica.db).list()).toEqual(new CarrierStore(direct).list());
  });

  test("hostile free text (FTS operators, quotes, accents) answers the same as SQLite", () => {
    const fromReplica = new BrokerStore(replica.db);
    const fromSqlite = new BrokerStore(direct);
    const hostile = ['"', "NEAR(a b)", "a*", "* OR *", "name:x", "-insurance", "^start", "Montréal", "MONTREAL", "québec assurance", "'; DROP TABLE brokers; --", "AND OR NOT", "((", "é", "\u0000"];
    for (const q of hostile) expect({ q, answer: fromReplica.search({ q }, 1, 20) }).toEqual({ q, answer: fromSqlite.search({ q }, 1, 20) });
  });

  test("a reseed replaces the directory in one transaction, keeps workspaces, keys and leads, and marks a reload", async () => {
    const client = database.pg.$client;
    await client`INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'kept', 1)`;
    await client`INSERT INTO api_keys (id, workspace_id, name, display_prefix, hash, scopes, rate_limit_per_minute, created_at)
                 VALUES ('k1', 'w1', 'kept', 'bd_x', 'ab', '["brokers:read"]', 100, 1)`;
    await client`INSERT INTO leads (id, workspace_id, name, email, phone, insurance_type, broker_slug, source, status, created_at)
                 VALUES ('l1', 'w1', 'N', 'n@example.com', '+15145550000', 'auto', 'a-broker-that-will-be-gone', 'api', 'new', 1)`;
    const [before] = await client<{ seq: string }[]>`SELECT coalesce(max(seq), 0) AS seq FROM directory_changes`;
    const summary = await loadDirectoryPg(database.pg, { brokers: 40, reviewsPerBroker: 2, seed: 9 });
    expect(summary.brokers).toBe(40);
    const [counts] = await client<{ brokers: number; workspaces: number; keys: number; leads: number }[]>`
      SELECT (SELECT count(*)::int FROM brokers) AS brokers, (SELECT count(*)::int FROM workspaces) AS workspaces,
             (SELECT count(*)::int FROM api_keys) AS keys, (SELECT count(*)::int FROM leads) AS leads`;
    expect(counts).toEqual({ brokers: 40, workspaces: 1, keys: 1, leads: 1 });
    // The bulk copy wrote no per-row changes: one "reload everything" marker after what was there.
    const marks = await client<{ broker_id: number }[]>`SELECT broker_id FROM directory_changes WHERE seq > ${before!.seq} ORDER BY seq`;
    expect(marks.map((m) => m.broker_id)).toEqual([0]);
    // Requests keep being answered between the reload's steps (never an exception), then from the new directory.
    const store = new BrokerStore(replica.db);
    let reloading = true;
    let answered = 0;
    const serving = (async () => {
      while (reloading) {
        store.search({ q: "insurance" }, 1, 20);
        store.search({ sort: "rating", facets: ["province"] }, 1, 20);
        answered++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await replica.syncNow().finally(() => (reloading = false));
    await serving;
    expect(answered).toBeGreaterThan(0);
    expect(replica.db.$client.query("SELECT count(*) AS n FROM brokers").get()).toEqual({ n: 40 });
    expect(store.search({}, 1, 100).total).toBe(Number((await client<{ n: number }[]>`SELECT count(*)::int AS n FROM brokers WHERE published`)[0]!.n));
    // Aggregates arrived as computed by the generator's SQLite file, not recounted twice.
    const [sums] = await client<{ published: number; counted: number }[]>`
      SELECT (SELECT count(*)::int FROM reviews WHERE published) AS published, (SELECT sum(review_count)::int FROM brokers) AS counted`;
    expect(sums!.counted).toBe(sums!.published);
  });

  test("demo data is loaded only into an empty directory", async () => {
    expect(await loadDemoDirectoryPg(database.pg, { brokers: 5, reviewsPerBroker: 1, seed: 1 })).toBe(0);
    const [row] = await database.pg.$client<{ n: number }[]>`SELECT count(*)::int AS n FROM brokers`;
    expect(row!.n).toBe(40);
  });
});
