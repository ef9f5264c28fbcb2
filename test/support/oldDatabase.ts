import type { Database } from "bun:sqlite";
import { MIGRATIONS } from "../../db/migrations.ts";
import { startApp, type RunningApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";

/**
 * Gives a fresh database the schema an older release left: every migration before
 * `firstPending`, recorded as applied, so that the next start applies `firstPending` onwards.
 */
export function applyMigrationsBefore(client: Database, firstPending: string): void {
  const pending = MIGRATIONS.findIndex((m) => m.tag === firstPending);
  if (pending < 0) throw new Error(`no migration ${firstPending}`);
  client.exec("CREATE TABLE schema_migrations (tag TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)");
  for (const migration of MIGRATIONS.slice(0, pending)) {
    for (const statement of migration.sql.split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean)) client.run(statement);
    client.run("INSERT INTO schema_migrations (tag, applied_at) VALUES (?, ?)", [migration.tag, 0]);
  }
}

/** Starts the app on an old database file (the upgrade happens here) and makes a key. */
export async function startUpgradedApp(databasePath: string): Promise<{ app: RunningApp; key: string }> {
  const app = await startApp({ databasePath, port: 0, hostname: "127.0.0.1", demo: false, logger: createLogger("silent") });
  return { app, key: (await app.services.keys.create({ workspace: "upgrade" }, Date.now())).key };
}
