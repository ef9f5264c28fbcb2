import { describe, test } from "bun:test";
import { createHash } from "node:crypto";
import postgres from "postgres";
import { PG_MIGRATIONS } from "../../db/migrationsPg.ts";
import { closePostgres, openPostgres } from "../../src/storage/pg/pgDatabase.ts";
import { migratePg } from "../../src/storage/pg/migratePg.ts";
import { testPgServer } from "./pgTestDatabase.ts";

/**
 * Which database the suite runs over. `TEST_DATABASE=postgres` (with `TEST_PG_URL`, and
 * `TEST_REDIS_URL` for the shared rate limits) is the second run of `.ci/run`
 * (scripts/test-on-postgres.ts sets all three); unset, SQLite files in temp dirs, as always.
 */
export const onPostgres = process.env.TEST_DATABASE === "postgres";

if (onPostgres && !process.env.TEST_PG_URL) {
  throw new Error("TEST_DATABASE=postgres needs TEST_PG_URL (run the suite through scripts/test-on-postgres.ts)");
}

/**
 * The one way to keep a test off the PostgreSQL run: for tests of the SQLite file itself (they
 * open it with bun:sqlite, check its permissions, upgrade old files, WAL, backup, read-only
 * files, crash safety). Write the reason beside each use, in one line.
 */
export const sqliteOnly = test.skipIf(onPostgres);
/** `sqliteOnly` for a whole describe block. */
export const describeSqliteOnly = describe.skipIf(onPostgres);

export interface TestPgDatabase {
  url: string;
  /** Drops the database (closing what is still connected to it). */
  drop(): Promise<void>;
}

let admin: postgres.Sql | undefined;
let template: Promise<string> | undefined;
let created = 0;

/**
 * A fresh PostgreSQL database for one test server or test file, on testPgServer()'s server
 * (TEST_PG_URL, or a throwaway cluster): a copy of a migrated template (a file copy
 * inside PostgreSQL, much faster than migrating each time). `key` names a database that
 * outlives its server (a restart over the same `databasePath`): it is created once and reused.
 */
export async function createTestPgDatabase(key?: string): Promise<TestPgDatabase> {
  const server = await adminClient();
  const source = await (template ??= migratedTemplate(server));
  const name = key ? `bd_test_${digest(key).slice(0, 24)}` : `bd_test_${process.pid}_${++created}_${Date.now().toString(36)}`;
  const exists = key && (await server`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;
  if (!exists) await server.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
  return {
    url: databaseUrl(name),
    async drop() {
      await server.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

let base: string | undefined;

async function adminClient(): Promise<postgres.Sql> {
  base ??= await testPgServer();
  // One connection: CREATE DATABASE runs alone anyway, and the advisory lock below is per session.
  return (admin ??= postgres(base, { max: 1, onnotice: () => {}, idle_timeout: 5 }));
}

/**
 * The template: migrated once and named after the migrations' text, so every test process of a
 * run (and the next run, on a kept server) reuses it, and a changed migration makes a new one.
 * Made under another name and renamed when complete, under an advisory lock, so two processes
 * never both make it and none copies a half-migrated one.
 */
async function migratedTemplate(server: postgres.Sql): Promise<string> {
  const name = `bd_template_${digest(PG_MIGRATIONS.map((m) => m.tag + m.sql).join("\n")).slice(0, 16)}`;
  await server`SELECT pg_advisory_lock(${0x62726b74706c})`;
  try {
    if ((await server`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0) return name;
    const making = `${name}_making`;
    await server.unsafe(`DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`);
    await server.unsafe(`CREATE DATABASE "${making}"`);
    const db = openPostgres(databaseUrl(making), { max: 1 });
    try {
      await migratePg(db);
    } finally {
      await closePostgres(db);
    }
    await server.unsafe(`ALTER DATABASE "${making}" RENAME TO "${name}"`);
    return name;
  } finally {
    await server`SELECT pg_advisory_unlock(${0x62726b74706c})`;
  }
}

/** `name` on the server adminClient() reached (so only after it). */
function databaseUrl(name: string): string {
  const url = new URL(base!);
  url.pathname = `/${name}`;
  return url.toString();
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
