import { Database } from "bun:sqlite";
import { existsSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { MIGRATIONS } from "../../db/migrations.ts";
import { checkDatabasePath } from "../storage/sqlite/databaseFile.ts";
import { createOwnerOnly } from "../storage/sqlite/ownerOnly.ts";
import { BackupError, verify } from "./backup.ts";

/**
 * Puts a backup in place of the database file. Run it with the server stopped: SQLite files
 * cannot be swapped under a live process. The backup is checked first (readable, intact, not
 * written by a newer version), then written beside the target with VACUUM INTO (so a copy that
 * still has its own -wal file is restored whole, not just its main file) and renamed over it
 * in one step; the old write-ahead log is removed so it cannot be replayed onto the restored file.
 */
export function restoreDatabase(backupPath: string, targetPath: string, options: { force: boolean }): { path: string } {
  const backup = resolve(backupPath);
  const target = resolve(targetPath);
  if (!existsSync(backup)) throw new BackupError(`No backup at ${backup}.`);
  if (backup === target) throw new BackupError("The backup and the database are the same file.");
  // Renamed over, a device such as /dev/null would be replaced by the database.
  checkDatabasePath(backup);
  checkDatabasePath(target);
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
  const source = new Database(backup, { readwrite: true, create: false });
  try {
    createOwnerOnly(staging); // owner-only before any byte of the backup is in it
    source.query("VACUUM INTO ?").run(staging);
  } catch (error) {
    rmSync(staging, { force: true });
    throw new BackupError(`Could not copy ${backup}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    source.close();
  }
  try {
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
