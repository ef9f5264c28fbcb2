import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { MIGRATIONS } from "../../db/migrations.ts";
import { BackupError, verify } from "./backup.ts";

/**
 * Puts a backup in place of the database file. Run it with the server stopped: SQLite files
 * cannot be swapped under a live process. The backup is checked first (readable, intact, not
 * written by a newer version), copied beside the target and renamed over it in one step, and
 * the old write-ahead log is removed so it cannot be replayed onto the restored file.
 */
export function restoreDatabase(backupPath: string, targetPath: string, options: { force: boolean }): { path: string } {
  const backup = resolve(backupPath);
  const target = resolve(targetPath);
  if (!existsSync(backup)) throw new BackupError(`No backup at ${backup}.`);
  if (backup === target) throw new BackupError("The backup and the database are the same file.");
  verify(backup);
  const unknown = migrationsUnknownToThisBinary(backup);
  if (unknown.length > 0) {
    throw new BackupError(`${backup} was written by a newer version (migrations ${unknown.join(", ")}); restore it with that version.`);
  }
  if (existsSync(target) && !options.force) {
    throw new BackupError(`${target} exists. Stop the server, then run restore again with --force to replace it.`);
  }
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist; create it first.`);

  const staging = join(dirname(target), `.restore-${process.pid}-${Date.now()}.db`);
  try {
    copyFileSync(backup, staging);
    rmSync(`${target}-wal`, { force: true });
    rmSync(`${target}-shm`, { force: true });
    renameSync(staging, target);
  } finally {
    rmSync(staging, { force: true });
  }
  return { path: target };
}

function migrationsUnknownToThisBinary(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const hasTable = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!hasTable) throw new BackupError(`${path} is not a Broker Directory database (it has no schema_migrations table).`);
    const known = new Set(MIGRATIONS.map((m) => m.tag));
    return db.query<{ tag: string }, []>("SELECT tag FROM schema_migrations").all().map((r) => r.tag).filter((t) => !known.has(t));
  } finally {
    db.close();
  }
}
