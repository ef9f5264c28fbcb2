import { MIGRATIONS } from "../../../db/migrations.ts";
import type { DirectoryDb } from "./database.ts";

export class SchemaTooNewError extends Error {}

/**
 * A database that has migrations this binary does not know was written by a newer version:
 * refuse it rather than run old code against a schema it does not understand (either dialect).
 */
export function refuseNewerSchema(done: ReadonlySet<string>, migrations: readonly { tag: string }[]): void {
  const known = new Set(migrations.map((m) => m.tag));
  const unknown = [...done].filter((tag) => !known.has(tag));
  if (unknown.length > 0) {
    throw new SchemaTooNewError(
      `This database was migrated by a newer version of Broker Directory (migrations ${unknown.join(", ")}). ` +
        "Run the newer binary, or restore a backup taken before the upgrade.",
    );
  }
}

/**
 * Applies the embedded migrations that this database has not seen, each in its own
 * transaction. A database that has migrations this binary does not know was written by a
 * newer version: refuse it rather than run old code against a schema it does not understand.
 */
export function migrate(db: DirectoryDb): { applied: string[] } {
  const client = db.$client;
  client.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (tag TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const done = new Set(
    client.query<{ tag: string }, []>("SELECT tag FROM schema_migrations").all().map((r) => r.tag),
  );
  refuseNewerSchema(done, MIGRATIONS);
  const applied: string[] = [];
  for (const migration of MIGRATIONS) {
    if (done.has(migration.tag)) continue;
    const statements = migration.sql.split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean);
    client.transaction(() => {
      for (const statement of statements) client.run(statement);
      client.run("INSERT INTO schema_migrations (tag, applied_at) VALUES (?, ?)", [migration.tag, Date.now()]);
    })();
    applied.push(migration.tag);
  }
  return { applied };
}

/** Whether every embedded migration has been applied (for /readyz). */
export function isFullyMigrated(db: DirectoryDb): boolean {
  const row = db.$client
    .query<{ n: number }, []>(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    )
    .get();
  if (!row || row.n === 0) return false;
  const done = db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM schema_migrations").get();
  return (done?.n ?? 0) >= MIGRATIONS.length;
}
