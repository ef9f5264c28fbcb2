import { migratePg } from "../../src/storage/pg/migratePg.ts";
import { closePostgres, openPostgres, type PgDb } from "../../src/storage/pg/pgDatabase.ts";
import { startPostgres, type RunningPostgres } from "./postgres.ts";

let server: Promise<RunningPostgres> | undefined;

/**
 * The PostgreSQL server tests use: TEST_PG_URL when set (the suite's PostgreSQL run, or a dev
 * server), else a throwaway cluster started at the first need of this test run and stopped after
 * it (test/support/testRun.ts): `npm test` on a fresh clone needs nothing running.
 */
export async function testPgServer(): Promise<string> {
  return (await (server ??= startPostgres())).url;
}

/** Stops the throwaway cluster if this run started one (an external TEST_PG_URL is left alone). */
export async function stopTestPgServer(): Promise<void> {
  const running = server;
  server = undefined;
  await (await running)?.stop();
}

export interface PgTestDatabase {
  /** The URL of the fresh database (for a second pool, a CLI run, a server). */
  url: string;
  /** A pool on it (closed by drop). */
  pg: PgDb;
  /** Closes every pool opened with open() and drops the database. */
  drop(): Promise<void>;
  /** Another pool on the same database (a second instance), closed by drop. */
  open(): PgDb;
}

/**
 * A fresh, migrated database for one test file, named `<prefix>_<random>` on the testPgServer()
 * server (which must let that user create databases), dropped by drop().
 *
 * @example
 * const db = await createPgTestDatabase("pgstores");
 * afterAll(() => db.drop());
 */
export async function createPgTestDatabase(prefix: string): Promise<PgTestDatabase> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`not a safe database name: ${name}`);
  const base = await testPgServer();
  const admin = openPostgres(base, { max: 1 });
  await admin.$client.unsafe(`CREATE DATABASE ${name}`);
  await closePostgres(admin);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pools: PgDb[] = [];
  const open = () => {
    const pool = openPostgres(url.href);
    pools.push(pool);
    return pool;
  };
  const pg = open();
  await migratePg(pg);
  return {
    url: url.href,
    pg,
    open,
    async drop() {
      await Promise.all(pools.map((pool) => closePostgres(pool, 1)));
      const closer = openPostgres(base, { max: 1 });
      await closer.$client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await closePostgres(closer);
    },
  };
}
