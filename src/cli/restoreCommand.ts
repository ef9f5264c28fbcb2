import { DEFAULT_DATABASE_PATH, readSetting } from "../config.ts";
import { restoreDatabase } from "../ops/restore.ts";
import { parseCommandArgs, UsageError } from "./cliSupport.ts";

export const RESTORE_HELP = `Usage: broker-directory restore <backup> [--db PATH] [--force]

Replaces the database with a backup made by 'backup'. Stop the server first: a SQLite
file cannot be swapped under a running process. The backup is checked (intact, and not
written by a newer version) before anything is touched.

  --db PATH   the database to replace (default DATABASE_PATH or ${DEFAULT_DATABASE_PATH})
  --force     replace an existing database (without it, restore only fills an empty path)`;

export function restoreCommand(args: string[], env: Record<string, string | undefined>): void {
  const { values, positionals } = parseCommandArgs(args, { db: { type: "string" }, force: { type: "boolean" } }, "restore", true);
  if (values.help) return console.log(RESTORE_HELP);
  const backup = positionals[0];
  if (!backup || positionals.length > 1) throw new UsageError("Name exactly one backup file: restore <backup>.\nRun 'restore --help' for usage.");
  const target = readSetting("databasePath", { flags: values, env });
  const { path } = restoreDatabase(backup, target, { force: values.force ?? false });
  console.log(`Restored ${backup} to ${path}. Start the server to use it (pending migrations run at start).`);
}
