import { readSetting } from "../config.ts";
import { closeDatabase, openDatabase, type DirectoryDb } from "../storage/sqlite/database.ts";
import { migrate } from "../storage/sqlite/migrate.ts";
import { openMigratedPostgres } from "../storage/pg/migratePg.ts";
import { closePostgres, unreachable, type PgDb } from "../storage/pg/pgDatabase.ts";
import { withoutPassword } from "./printableUrl.ts";
import { postgresUrlOf } from "./workspaceStores.ts";

export interface CommandDatabaseRun<T> {
  /** What was worked on, printable: the SQLite path or the URL without its password. */
  target: string;
  /** Migrations applied first. */
  applied: string[];
  result: T;
}

/**
 * Runs a command's work on the database the server uses (PostgreSQL with --database-url or
 * DATABASE_URL, else the SQLite file), migrated first and closed after. PostgreSQL out of reach
 * is one line naming the server (never its password).
 */
export async function onCommandDatabase<T>(
  values: { db?: string; "database-url"?: string },
  env: Record<string, string | undefined>,
  work: { pg: (pg: PgDb) => Promise<T>; sqlite: (db: DirectoryDb) => T },
): Promise<CommandDatabaseRun<T>> {
  const url = postgresUrlOf(values, env);
  if (url === undefined) {
    const target = readSetting("databasePath", { flags: values, env });
    const db = openDatabase(target);
    try {
      const { applied } = migrate(db);
      return { target, applied, result: work.sqlite(db) };
    } finally {
      closeDatabase(db);
    }
  }
  const { pg, applied } = await openMigratedPostgres(url);
  try {
    return { target: withoutPassword(url), applied, result: await work.pg(pg) };
  } catch (error) {
    throw unreachable(error, url);
  } finally {
    await closePostgres(pg);
  }
}
