import { closePostgres, openPostgres, type PgDb } from "../../src/storage/pg/pgDatabase.ts";
import { startPostgres, type RunningPostgres } from "./postgres.ts";
import { createTestPgDatabase } from "./testDatabase.ts";

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
 * A fresh, migrated database for one test file (createTestPgDatabase's copy of the migrated
 * template) with a pool on it, dropped by drop().
 *
 * @example
 * const db = await createPgTestDatabase();
 * afterAll(() => db.drop());
 */
export async function createPgTestDatabase(): Promise<PgTestDatabase> {
  const database = await createTestPgDatabase();
  const pools: PgDb[] = [];
  const open = () => {
    const pool = openPostgres(database.url);
    pools.push(pool);
    return pool;
  };
  const pg = open();
  return {
    url: database.url,
    pg,
    open,
    async drop() {
      await Promise.all(pools.map((pool) => closePostgres(pool, 1)));
      await database.drop();
    },
  };
}
