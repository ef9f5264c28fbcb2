import { closeDatabase, openDatabase } from "../storage/database.ts";
import { migrate } from "../storage/migrate.ts";
import { migratePg } from "../storage/pg/migratePg.ts";
import { closePostgres, openPostgres } from "../storage/pg/pgDatabase.ts";
import { parseCommandArgs } from "./cliSupport.ts";
import { DATABASE_URL_OPTION, databaseUrlOf, withoutPassword } from "./databaseUrlFlag.ts";

export const MIGRATE_HELP = `Usage: broker-directory migrate [--db PATH | --database-url URL]

Applies pending database migrations and exits. (serve does this at start too.)

  --db PATH            SQLite file (default DATABASE_PATH or ./data/broker-directory.db)
  --database-url URL   PostgreSQL instead (default DATABASE_URL); an advisory lock makes
                       instances starting at the same time migrate once`;

export async function migrateCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values } = parseCommandArgs(args, { db: { type: "string" }, ...DATABASE_URL_OPTION }, "migrate");
  if (values.help) return console.log(MIGRATE_HELP);
  const url = databaseUrlOf(values["database-url"], env);
  let applied: string[];
  let target: string;
  if (url) {
    target = withoutPassword(url);
    const pg = openPostgres(url);
    try {
      ({ applied } = await migratePg(pg));
    } finally {
      await closePostgres(pg);
    }
  } else {
    target = values.db ?? env.DATABASE_PATH ?? "./data/broker-directory.db";
    const db = openDatabase(target);
    ({ applied } = migrate(db));
    closeDatabase(db);
  }
  console.log(applied.length > 0 ? `Applied ${applied.join(", ")} to ${target}.` : `${target} is up to date.`);
}
