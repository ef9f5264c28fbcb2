import { chmodSync, closeSync, existsSync, openSync, statSync } from "node:fs";

/** Database files hold leads' personal data: owner read/write only. */
export const OWNER_ONLY_MODE = 0o600;

/**
 * Creates `path` empty with mode 0600 if it does not exist yet, before SQLite (which would use
 * 0644 less the umask) touches it. SQLite gives the -wal, -shm and -journal files it creates
 * later the mode of the main file, so making the main file right is what covers them.
 */
export function createOwnerOnly(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, "a", OWNER_ONLY_MODE));
  chmodSync(path, OWNER_ONLY_MODE); // a umask can only narrow the mode; this makes it exact
}

/**
 * Takes group and other permissions off the database and the companions that exist now (files
 * an older version left 0644). The owner's bits are kept: a file its owner made read-only stays so.
 */
export function restrictToOwner(databasePath: string): void {
  for (const path of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`]) {
    try {
      const mode = statSync(path).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(path, mode & OWNER_ONLY_MODE);
    } catch (error) {
      // Not there (the log is made on first use), or a read-only file system: nothing to fix.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EROFS" && code !== "EPERM") throw error;
    }
  }
}
