import { DEFAULT_DATABASE_PATH, readSetting } from "../config.ts";
import { backupDatabase, BackupError } from "../ops/backup.ts";
import { parseCommandArgs, UsageError } from "./cliSupport.ts";
import { withoutPassword } from "./printableUrl.ts";
import { DATABASE_FLAGS, postgresUrlOf } from "./workspaceStores.ts";

export const BACKUP_HELP = `Usage: broker-directory backup <path> [--db PATH] [--json]

Writes a consistent copy of the database to <path> while the server keeps running
(SQLite VACUUM INTO: one snapshot, compacted). Refuses to overwrite an existing file.
Restore with 'broker-directory restore <path>' while the server is stopped.

  --db PATH            the live database (default DATABASE_PATH or ${DEFAULT_DATABASE_PATH})
  --database-url URL   PostgreSQL (default DATABASE_URL, unless --db is given): prints the pg_dump command that backs
                       it up, and exits 1 (PostgreSQL's own tools do this job better)
  --json               print {"path", "bytes", "ms"} instead of a sentence`;

export function backupCommand(args: string[], env: Record<string, string | undefined>): void {
  const { values, positionals } = parseCommandArgs(args, { ...DATABASE_FLAGS, json: { type: "boolean" } }, "backup", true);
  if (values.help) return console.log(BACKUP_HELP);
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new UsageError("Name exactly one backup file: backup <path>.\nRun 'backup --help' for usage.");
  const url = postgresUrlOf(values, env);
  if (url) throw new BackupError(pgDumpGuidance(url, target));
  const source = readSetting("databasePath", { flags: values, env });
  // A BackupError (target exists, source missing…) reaches main, which prints it and exits 1.
  const result = backupDatabase(source, target);
  if (values.json) return console.log(JSON.stringify(result));
  console.log(`Backed up ${source} to ${result.path} (${result.bytes.toLocaleString("en-CA")} bytes in ${result.ms} ms).`);
}

/**
 * What to run instead: pg_dump takes a consistent snapshot of a live database (as VACUUM INTO
 * does for SQLite), in its custom format that pg_restore reads. The URL is printed without its
 * password (pg_dump reads it from PGPASSWORD or ~/.pgpass).
 */
export function pgDumpGuidance(url: string, target: string): string {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  return [
    "backup does not copy a PostgreSQL database itself: use PostgreSQL's pg_dump (package postgresql-client), which",
    "takes one consistent snapshot while every instance keeps serving:",
    "",
    `  pg_dump --format=custom --no-owner --file=${quote(target)} ${quote(withoutPassword(url))}`,
    "",
    "(the password, if any, from PGPASSWORD or ~/.pgpass). Restore into an empty database with:",
    "",
    `  pg_restore --no-owner --dbname=${quote(withoutPassword(url))} ${quote(target)}`,
  ].join("\n");
}
