import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadCarriersPg } from "../../src/storage/pg/loadCarriersPg.ts";
import { loadDirectoryPg } from "../../src/demo/loadDirectoryPg.ts";
import { createLogger } from "../../src/log.ts";
import { BrokerStore } from "../../src/storage/stores/brokerStore.ts";
import { CarrierStore } from "../../src/storage/stores/carrierStore.ts";
import { DirectoryReplica } from "../../src/storage/pg/directoryReplica.ts";
import { closePostgres, openPostgres } from "../../src/storage/pg/pgDatabase.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";
import { eventually } from "../support/eventually.ts";

const log = createLogger("error");

/** A broker's row in the replica, by slug. */
function replicaBroker(replica: DirectoryReplica, slug: string) {
  return replica.db.$client.query<{ id: number; name: string; published: number; review_count: number; average_rating: number | null }, [string]>(
    "SELECT id, name, published, review_count, average_rating FROM brokers WHERE slug = ?",
  ).get(slug);
}

describe("the directory replica follows PostgreSQL", () => {
  let database: PgTestDatabase;
  let replica: DirectoryReplica;
  let store: BrokerStore;
  let slugs: string[];

  beforeAll(async () => {
    database = await createPgTestDatabase();
    await loadDirectoryPg(database.pg, { brokers: 60, reviewsPerBroker: 4, seed: 3 });
    await loadCarriersPg(database.pg);
    replica = await DirectoryReplica.open(database.pg, { log });
    store = new BrokerStore(replica.db);
    const rows = await database.pg.$client<{ slug: string }[]>`SELECT slug FROM brokers WHERE published ORDER BY id`;
    slugs = rows.map((r) => r.slug);
  });

  afterAll(async () => {
    await replica?.close();
    await database?.drop();
  });

  test("is a private file (0600 in a 0700 directory), ready once loaded, removed on close", async () => {
    const other = await DirectoryReplica.open(database.pg, { log });
    const file = other.db.$client.filename;
    expect(other.ready).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    await other.close();
    expect(existsSync(dirname(file))).toBe(false);
  });

  test("PostgreSQL unreachable at open: the open fails and leaves no file behind", async () => {
    const parent = mkdtempSync(join(tmpdir(), "pgreplica-parent-"));
    const nowhere = openPostgres("postgres://postgres@127.0.0.1:1/none", { max: 1 });
    try {
      await expect(DirectoryReplica.open(nowhere, { log, dir: parent })).rejects.toThrow();
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      await closePostgres(nowhere, 0);
      rmSync(parent, { recursive: true, force: true });
    }
  });

  test("a broker unpublished with plain SQL disappears from search and detail", async () => {
    const slug = slugs[0]!;
    expect(store.findBySlug(slug)).toBeDefined();
    await database.pg.$client`UPDATE brokers SET published = false WHERE slug = ${slug}`;
    expect(await eventually(() => store.findBySlug(slug) === undefined)).toBe(true);
    expect(store.search({}, 1, 100).items.some((item) => item.slug === slug)).toBe(false);
  });

  test("a review inserted with plain SQL moves the aggregates to PostgreSQL's values, counted once", async () => {
    const slug = slugs[1]!;
    const before = replicaBroker(replica, slug)!;
    await database.pg.$client`INSERT INTO reviews (id, broker_id, author_name, rating, title, body, published, created_at)
      VALUES (900001, ${before.id}, 'Zoé', 1, 'Bad', 'Slow answers', true, ${Date.now()})`;
    expect(await eventually(() => replicaBroker(replica, slug)!.review_count === before.review_count + 1)).toBe(true);
    const [pg] = await database.pg.$client<{ review_count: number; average_rating: number }[]>`SELECT review_count, average_rating FROM brokers WHERE slug = ${slug}`;
    expect(replicaBroker(replica, slug)).toMatchObject({ review_count: pg!.review_count, average_rating: pg!.average_rating });
    // Only reviews were replaced: the replica's own journal says "ratings only", so the search
    // index updates this broker in place instead of rebuilding.
    const local = replica.db.$client.query<{ ratings_only: number }, [number]>(
      "SELECT ratings_only FROM directory_changes WHERE broker_id = ? ORDER BY seq DESC LIMIT 3",
    ).all(before.id);
    expect(local.length).toBeGreaterThan(0);
    expect(local.every((c) => c.ratings_only === 1)).toBe(true);
    const detail = store.findBySlug(slug)!;
    expect(store.reviewsOf({ rowId: before.id, slug, name: detail.name, reviewCount: detail.reviewCount, starCounts: [1, 0, 0, 0, 0] }, 1, 50).some((r) => r.authorName === "Zoé")).toBe(true);
  });

  test("an office moved with plain SQL moves in the replica", async () => {
    const slug = slugs[2]!;
    await database.pg.$client`UPDATE broker_locations SET city = 'Rimouski', city_key = 'rimouski', province = 'QC'
      WHERE broker_id = (SELECT id FROM brokers WHERE slug = ${slug})`;
    expect(await eventually(() => store.findBySlug(slug)?.locations.every((l) => l.city === "Rimouski") === true)).toBe(true);
    expect(store.search({ city: "rimouski" }, 1, 50).items.some((item) => item.slug === slug)).toBe(true);
  });

  test("with the LISTEN connection killed, the 1 s poll still brings the change", async () => {
    const killed = await database.pg.$client`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'listen%'`;
    expect(killed.length).toBeGreaterThan(0);
    const slug = slugs[3]!;
    await database.pg.$client`UPDATE brokers SET name = 'Renamed While Deaf' WHERE slug = ${slug}`;
    // The poll period (1 s) plus one sync, on a busy machine.
    expect(await eventually(() => store.findBySlug(slug)?.name === "Renamed While Deaf", 3_000)).toBe(true);
  });

  test("a reload marker (broker 0) reloads everything, including rows written without per-row changes", async () => {
    const slug = slugs[4]!;
    await database.pg.$client.begin(async (tx) => {
      await tx`SET LOCAL broker_directory.bulk_load = 'on'`;
      await tx`UPDATE brokers SET name = 'Bulk Renamed' WHERE slug = ${slug}`;
      await tx`INSERT INTO directory_changes (broker_id, ratings_only) VALUES (0, false)`;
    });
    // A reload writes page by page, so a read may see the new name before the last page (the
    // directory is a mix until then, see the manual's scaling-out page): wait for the reload to end as well.
    expect(await eventually(() => replica.lag().phase === "ready" && store.findBySlug(slug)?.name === "Bulk Renamed")).toBe(true);
    expect(store.search({ q: "Bulk Renamed" }, 1, 10).items[0]?.slug).toBe(slug);
  });

  test("a replica the pruned journal no longer reaches back to reloads everything", async () => {
    const slug = slugs[7]!;
    await replica.syncNow();
    await database.pg.$client.begin(async (tx) => {
      await tx`SET LOCAL broker_directory.bulk_load = 'on'`;
      await tx`UPDATE brokers SET name = 'Renamed Past The Journal' WHERE slug = ${slug}`;
      // As if 20,000 changes had happened: the ones the replica would need are gone.
      const [latest] = await tx<{ seq: string }[]>`SELECT max(seq) AS seq FROM directory_changes`;
      await tx`DELETE FROM directory_changes`;
      await tx`INSERT INTO directory_changes (seq, broker_id, ratings_only) OVERRIDING SYSTEM VALUE
               VALUES (${Number(latest!.seq) + 20_000}, ${2_000_000}, false)`;
      await tx`SELECT setval(pg_get_serial_sequence('directory_changes', 'seq'), ${Number(latest!.seq) + 20_000})`;
    });
    expect(await eventually(() => store.findBySlug(slug)?.name === "Renamed Past The Journal")).toBe(true);
  });

  test("carriers changed in PostgreSQL are re-read", async () => {
    const carriers = new CarrierStore(replica.db);
    const first = carriers.list()[0]!;
    await database.pg.$client`UPDATE carriers SET name = ${`${first.name} (renamed)`} WHERE slug = ${first.slug}`;
    expect(await eventually(() => carriers.list().some((c) => c.name === `${first.name} (renamed)`))).toBe(true);
  });

  test("two replicas on one database both follow, and syncNow applies a write at once", async () => {
    const second = await DirectoryReplica.open(database.pg, { log });
    try {
      const slug = slugs[5]!;
      await database.pg.$client`UPDATE brokers SET description = 'Seen by both' WHERE slug = ${slug}`;
      // syncNow: what was committed before the call is in the replica when it resolves.
      await Promise.all([replica.syncNow(), replica.syncNow(), second.syncNow()]);
      for (const r of [replica, second]) expect(new BrokerStore(r.db).findBySlug(slug)?.description).toBe("Seen by both");
      expect(replica.lag()).toMatchObject({ failing: false, phase: "ready" });
    } finally {
      await second.close();
    }
  });

  test("a deleted broker is deleted from the replica, its offices and reviews with it", async () => {
    const slug = slugs[6]!;
    const id = replicaBroker(replica, slug)!.id;
    await database.pg.$client`DELETE FROM brokers WHERE slug = ${slug}`;
    expect(await eventually(() => replicaBroker(replica, slug) === null)).toBe(true);
    const left = replica.db.$client.query<{ n: number }, [number, number]>(
      "SELECT (SELECT count(*) FROM reviews WHERE broker_id = ?) + (SELECT count(*) FROM broker_locations WHERE broker_id = ?) AS n",
    ).get(id, id);
    expect(left?.n).toBe(0);
  });

  test("in a replica directory, a closed replica is reused and catches up; another database's file is loaded afresh", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pgreplica-kept-"));
    const other = await createPgTestDatabase();
    try {
      const first = await DirectoryReplica.open(database.pg, { log, dir });
      const file = first.db.$client.filename;
      await first.close();
      const slug = slugs[7]!;
      await database.pg.$client`UPDATE brokers SET name = 'Changed While Away' WHERE slug = ${slug}`;
      const again = await DirectoryReplica.open(database.pg, { log, dir });
      expect(again.db.$client.filename).toBe(file);
      expect(again.lag().reused).toBe(true);
      // Caught up before open() resolved: no stale answer is ever served.
      expect(new BrokerStore(again.db).findBySlug(slug)?.name).toBe("Changed While Away");
      await again.close();
      // The same file offered to another database is loaded afresh from it.
      await loadDirectoryPg(other.pg, { brokers: 5, reviewsPerBroker: 1, seed: 9 });
      const foreign = await DirectoryReplica.open(other.pg, { log, dir });
      expect(foreign.lag().reused).toBe(false);
      expect(new BrokerStore(foreign.db).findBySlug(slug)).toBeUndefined();
      await foreign.close();
      expect(readdirSync(dir).filter((name) => name.endsWith(".db"))).toEqual([file.split("/").at(-1)!]);
    } finally {
      await other.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
