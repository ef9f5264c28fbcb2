import { statSync } from "node:fs";

/**
 * The SQLite path (--db, DATABASE_PATH) cannot be a database: a directory, a device such as
 * /dev/null, a file that is not SQLite, a folder that cannot be made. The operator's mistake,
 * not a bug: every command prints the message as one line and exits 1 (src/main.ts).
 */
export class DatabaseFileError extends Error {}

/** What a path that exists is, when it is not a file SQLite can use; undefined for a regular file or no file yet. */
function notAFile(path: string): string | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined; // nothing there (it will be created), or unreadable: opening it says which
  }
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return stats.isFIFO() ? "a pipe" : "not a regular file";
}

/** Refuses a path that exists and is not a regular file, before SQLite or chmod touch it (a device such as /dev/null must not be changed). */
export function checkDatabasePath(path: string): void {
  const what = notAFile(path);
  if (what) throw new DatabaseFileError(`The database path ${path} is ${what}: give the path of a SQLite file (created if missing).`);
}

/**
 * Errors of opening a database file that mean the path is wrong, not the program: SQLite's
 * (not a database, cannot open, I/O error, corrupt) and the file system's (no such folder, no
 * permission, read-only file system, a file where a folder should be).
 */
const OPEN_FAILURES = /^(SQLITE_(NOTADB|CANTOPEN|IOERR|CORRUPT|PERM|AUTH)|ENOENT$|EACCES$|EPERM$|EROFS$|ENOTDIR$|EISDIR$|EEXIST$|ELOOP$|ENAMETOOLONG$)/;

/** Such an error as a one-line DatabaseFileError naming the path and the reason; anything else as it was. */
export function databaseOpenFailure(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || !OPEN_FAILURES.test(code)) return error;
  // "ENOENT: no such file or directory, open '/x'" → "no such file or directory" (the path is named once, first).
  const reason = code === "EEXIST" ? "a file stands where its folder should be" : error instanceof Error ? error.message.split("\n")[0]!.split(", ")[0]!.replace(`${code}: `, "") : code;
  return new DatabaseFileError(`Cannot open the database ${path}: ${reason} (${code}).`);
}
