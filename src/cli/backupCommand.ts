import { backupDatabase } from "../ops/backup.ts";
import { parseCommandArgs, UsageError } from "./cliSupport.ts";

export const BACKUP_HELP = `Usage: broker-directory backup <path> [--db PATH] [--json]

Writes a consistent copy of the database to <path> while the server keeps running
(SQLite VACUUM INTO: one snapshot, compacted). Refuses to overwrite an existing file.
Restore with 'broker-directory restore <path>' while the server is stopped.

  --db PATH   the live database (default DATABASE_PATH or ./data/broker-directory.db)
  --json      print {"path", "bytes", "ms"} instead of a sentence`;

export function backupCommand(args: string[], env: Record<string, string | undefined>): void {
  const { values, positionals } = parseCommandArgs(args, { db: { type: "string" }, json: { type: "boolean" } }, "backup", true);
  if (values.help) return console.log(BACKUP_HELP);
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new UsageError("Name exactly one backup file: backup <path>.\nRun 'backup --help' for usage.");
  const source = values.db ?? env.DATABASE_PATH ?? "./data/broker-directory.db";
  // A BackupError (target exists, source missing…) reaches main, which prints it and exits 1.
  const result = backupDatabase(source, target);
  if (values.json) return console.log(JSON.stringify(result));
  console.log(`Backed up ${source} to ${result.path} (${result.bytes.toLocaleString("en-CA")} bytes in ${result.ms} ms).`);
}
