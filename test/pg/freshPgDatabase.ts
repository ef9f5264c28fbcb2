import postgres from "postgres";
import { closePostgres, openPostgres, type PgDb } from "../../src/storage/pg/pgDatabase.ts";
import { migratePg } from "../../src/storage/pg/migratePg.ts";

/** The PostgreSQL server the pg tests use (a superuser URL: they create and drop databases). */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:55432/postgres";

/** Whether that server answers (the pg tests are skipped, with a note, when it does not). */
export async function pgServerReachable(): Promise<boolean> {
  const admin = postgres(TEST_PG_URL, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await admin`SELECT 1`;
    return true;
  } catch {
    console.warn(`PostgreSQL tests skipped: nothing answers at ${new URL(TEST_PG_URL).host} (set TEST_PG_URL)`);
    return false;
  } finally {
    await admin.end({ timeout: 1 });
  }
}

export interface FreshPgDatabase {
  url: string;
  name: string;
  /** A pool on it, migrated. */
  pg: PgDb;
  /** Closes the pool and drops the database (connections of others included). */
  drop(): Promise<void>;
}

/** A new database (migrated unless asked not to) named `${prefix}<random>` on the test server. */
export async function freshPgDatabase(prefix: string, { migrated = true } = {}): Promise<FreshPgDatabase> {
  const name = `${prefix}${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  const pg = openPostgres(url.toString());
  if (migrated) await migratePg(pg);
  return {
    url: url.toString(),
    name,
    pg,
    async drop() {
      await closePostgres(pg, 1).catch(() => {});
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end({ timeout: 1 });
    },
  };
}

/** Polls `check` until it holds (at most `ms`); answers whether it did. Never a wall-clock assertion. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 2_000): Promise<boolean> {
  const end = performance.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > end) return false;
    await Bun.sleep(20);
  }
}
