import { PG_MIGRATIONS } from "../../../db/migrationsPg.ts";
import { refuseNewerSchema } from "../sqlite/migrate.ts";
import { closePostgres, openPostgres, unreachable, type PgDb, type PgOptions } from "./pgDatabase.ts";

/**
 * The advisory lock every instance takes to migrate: two instances starting at once do not both
 * migrate; the second waits, then finds nothing left to do. An arbitrary constant ("brkdir" in ASCII).
 */
const MIGRATION_LOCK = 0x62726b646972;

/**
 * Applies the PostgreSQL migrations this database has not seen, all in one transaction holding
 * the advisory lock (PostgreSQL's DDL is transactional: a failure leaves nothing half-done). A
 * database migrated by a newer binary is refused, as with SQLite.
 */
export async function migratePg(db: PgDb): Promise<{ applied: string[] }> {
  return db.$client.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (tag text PRIMARY KEY, applied_at bigint NOT NULL)`;
    const done = new Set((await tx<{ tag: string }[]>`SELECT tag FROM schema_migrations`).map((r) => r.tag));
    refuseNewerSchema(done, PG_MIGRATIONS);
    const applied: string[] = [];
    for (const migration of PG_MIGRATIONS) {
      if (done.has(migration.tag)) continue;
      for (const statement of migration.sql.split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean)) {
        await tx.unsafe(statement);
      }
      await tx`INSERT INTO schema_migrations (tag, applied_at) VALUES (${migration.tag}, ${Date.now()})`;
      applied.push(migration.tag);
    }
    return { applied };
  });
}

/** Whether every embedded migration has been applied (for /readyz). */
export async function isPgFullyMigrated(db: PgDb): Promise<boolean> {
  const [row] = await db.$client<{ n: number }[]>`
    SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0 ELSE (SELECT count(*)::integer FROM schema_migrations) END AS n`;
  return (row?.n ?? 0) >= PG_MIGRATIONS.length;
}

/**
 * Opens PostgreSQL and applies its pending migrations, as every command and `serve` does first.
 * Out of reach: the pool is closed again and the error is the one line that names the server
 * (never the password).
 */
export async function openMigratedPostgres(url: string, options?: PgOptions): Promise<{ pg: PgDb; applied: string[] }> {
  const pg = openPostgres(url, options);
  try {
    return { pg, ...(await migratePg(pg)) };
  } catch (error) {
    await closePostgres(pg, 0).catch(() => {});
    throw unreachable(error, url);
  }
}
