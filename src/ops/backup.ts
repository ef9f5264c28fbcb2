import { Database } from "bun:sqlite";
import { existsSync, linkSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { checkDatabasePath } from "../storage/sqlite/databaseFile.ts";
import { createOwnerOnly } from "../storage/sqlite/ownerOnly.ts";

export class BackupError extends Error {}

export interface BackupResult {
  path: string;
  bytes: number;
  ms: number;
}

/**
 * A consistent copy of a live database: `VACUUM INTO` reads one snapshot inside a read
 * transaction, so the server keeps serving (and writing, under WAL) while it runs. The copy is
 * written beside the target under a temporary name and hard-linked into place, which fails
 * if the target exists: a backup never overwrites anything, even in a race.
 */
export function backupDatabase(sourcePath: string, targetPath: string): BackupResult {
  const source = resolve(sourcePath);
  const target = resolve(targetPath);
  if (!existsSync(source)) throw new BackupError(`No database at ${source}. Pass --db PATH (or DATABASE_PATH) of the live database.`);
  checkDatabasePath(source);
  if (target === source) throw new BackupError("The backup path is the database itself; choose another file.");
  if (existsSync(target)) throw new BackupError(`${target} already exists; a backup never overwrites a file. Choose a new name.`);
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist; create it first.`);

  const started = performance.now();
  const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}-${Date.now()}`);
  // Read-write without create: a read-only handle on a WAL database cannot always set up
  // its shared-memory index, and `create: false` keeps a mistyped path from making a new file.
  const db = new Database(source, { readwrite: true, create: false });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    // VACUUM INTO fills an empty file as it finds it: made 0600 first, the copy never exists readable by others.
    createOwnerOnly(partial);
    db.query("VACUUM INTO ?").run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new BackupError(`The backup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    db.close();
  }
  try {
    verify(partial);
    linkSync(partial, target);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(code === "EEXIST" ? `${target} appeared while the backup ran; nothing was overwritten.` : `Could not write ${target}: ${String(error)}`);
  } finally {
    rmSync(partial, { force: true });
  }
  return { path: target, bytes: statSync(target).size, ms: Math.round(performance.now() - started) };
}

/** A cheap structural check of a written copy (quick_check skips the index cross-check). */
export function verify(path: string): void {
  const copy = new Database(path, { readonly: true });
  try {
    const row = copy.query<{ quick_check: string }, []>("PRAGMA quick_check").get();
    if (row?.quick_check !== "ok") throw new BackupError(`${path} failed its integrity check: ${row?.quick_check ?? "no answer"}.`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${path} is not a readable SQLite database (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    copy.close();
  }
}
