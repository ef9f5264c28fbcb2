import { DEFAULT_DATABASE_PATH } from "../config.ts";
import { parseCommandArgs } from "./cliSupport.ts";
import { onCommandDatabase } from "./commandDatabase.ts";
import { DATABASE_FLAGS } from "./workspaceStores.ts";

export const MIGRATE_HELP = `Usage: broker-directory migrate [--db PATH | --database-url URL]

Applies pending database migrations and exits. (serve does this at start too.)

  --db PATH            SQLite file (default DATABASE_PATH or ${DEFAULT_DATABASE_PATH})
  --database-url URL   PostgreSQL instead (default DATABASE_URL, unless --db is given); an advisory lock makes
                       instances starting at the same time migrate once`;

export async function migrateCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values } = parseCommandArgs(args, DATABASE_FLAGS, "migrate");
  if (values.help) return console.log(MIGRATE_HELP);
  const { target, applied } = await onCommandDatabase(values, env, { pg: async () => undefined, sqlite: () => undefined });
  console.log(applied.length > 0 ? `Applied ${applied.join(", ")} to ${target}.` : `${target} is up to date.`);
}
