import { closeDatabase, openDatabase } from "../storage/database.ts";
import { migrate } from "../storage/migrate.ts";
import { parseCommandArgs } from "./cliSupport.ts";

export const MIGRATE_HELP = `Usage: broker-directory migrate [--db PATH]

Applies pending database migrations and exits. (serve does this at start too.)

  --db PATH   SQLite file (default DATABASE_PATH or ./data/broker-directory.db)`;

export function migrateCommand(args: string[], env: Record<string, string | undefined>): void {
  const { values } = parseCommandArgs(args, { db: { type: "string" } }, "migrate");
  if (values.help) return console.log(MIGRATE_HELP);
  const path = values.db ?? env.DATABASE_PATH ?? "./data/broker-directory.db";
  const db = openDatabase(path);
  const { applied } = migrate(db);
  closeDatabase(db);
  console.log(applied.length > 0 ? `Applied ${applied.join(", ")} to ${path}.` : `${path} is up to date.`);
}
