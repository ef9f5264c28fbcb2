import { migratePg } from "../../src/storage/pg/migratePg.ts";
import { closePostgres, openPostgres, type PgDb } from "../../src/storage/pg/pgDatabase.ts";

/** The PostgreSQL server tests use: TEST_PG_URL (CI points it at its own cluster), else the dev server. */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:55432/postgres";

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
 * A fresh, migrated database for one test file, named `<prefix>_<random>` on the TEST_PG_URL
 * server (which must let that user create databases), dropped by drop().
 *
 * @example
 * const db = await createPgTestDatabase("pgstores");
 * afterAll(() => db.drop());
 */
export async function createPgTestDatabase(prefix: string): Promise<PgTestDatabase> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`not a safe database name: ${name}`);
  const admin = openPostgres(TEST_PG_URL, { max: 1 });
  await admin.$client.unsafe(`CREATE DATABASE ${name}`);
  await closePostgres(admin);
  const url = new URL(TEST_PG_URL);
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
      const closer = openPostgres(TEST_PG_URL, { max: 1 });
      await closer.$client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await closePostgres(closer);
    },
  };
}
