import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "../../../db/schema.ts";
import type { Logger } from "../../log.ts";
import { checkDatabasePath, databaseOpenFailure } from "./databaseFile.ts";
import { GroupCommit } from "./groupCommit.ts";
import { createOwnerOnly, restrictToOwner } from "./ownerOnly.ts";
import { storageFaultOf } from "../storageFault.ts";

/** The page cache of each connection, in KiB (SQLite's own default). */
export const PAGE_CACHE_KIB = 2_000;

export type DirectoryDb = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * How long a statement waits for a lock another process holds, sleeping in SQLite (the thread
 * waits). A command (seed, keys, migrate, backup: processes of their own) may wait: 5 s. The
 * serving connection may not (every request would wait with it): a few milliseconds, enough
 * for a reader to get past another connection's brief recovery; writes wait for longer without
 * blocking anyone, in GroupCommit (see serveWithoutBlocking).
 */
export const COMMAND_BUSY_TIMEOUT_MS = 5_000;
export const SERVING_BUSY_TIMEOUT_MS = 5;

/**
 * Opens (creating if needed) the SQLite file with the settings the service relies on:
 * WAL so readers never wait for the writer, foreign keys enforced, a busy timeout so a
 * second process (a CLI command beside the server) waits instead of failing (a server then
 * shortens it: serveWithoutBlocking). The file and its
 * companions are owner-only (0600): they hold leads' personal data.
 */
export function openDatabase(path: string, options: { synchronous?: "NORMAL" | "FULL" } = {}): DirectoryDb {
  const onDisk = path !== ":memory:";
  // A wrong path (a directory, /dev/null, a file that is not SQLite) is one line from every
  // command, not a stack trace: the first statement is the one that reads the file.
  if (onDisk) checkDatabasePath(path);
  let client: Database;
  try {
    if (onDisk) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      createOwnerOnly(path);
    }
    client = new Database(path, { create: true, strict: true });
  } catch (error) {
    throw databaseOpenFailure(path, error);
  }
  try {
    client.exec("PRAGMA journal_mode = WAL");
  } catch (error) {
    // A read-only file not yet in WAL mode: it is served as it is (reads work; writes answer 503).
    if (!storageFaultOf(error)) {
      client.close();
      throw databaseOpenFailure(path, error);
    }
  }
  // NORMAL in WAL mode: a commit is in the log before it is acknowledged, so a process crash
  // loses nothing; only a power loss or OS crash can drop the last commits (never corrupt the
  // file). FULL also syncs the log on every commit, for operators who need that too.
  client.exec(`PRAGMA synchronous = ${options.synchronous === "FULL" ? "FULL" : "NORMAL"}`);
  client.exec("PRAGMA foreign_keys = ON");
  client.exec(`PRAGMA busy_timeout = ${COMMAND_BUSY_TIMEOUT_MS}`);
  client.exec("PRAGMA temp_store = MEMORY");
  // Reads map the file instead of copying pages through the cache: a 300 MB directory (100,000
  // brokers) is read at memory speed once warm. Writes still go through the WAL.
  client.exec("PRAGMA mmap_size = 1073741824");
  // So the page cache holds only what the map cannot serve: pages written since the last
  // checkpoint and those being written. SQLite's default (2 MiB) is enough for that; with 64 MiB
  // it filled with the pages of written quotes and kept them (75 MB of anonymous memory after
  // 30,000 quotes; no read was faster for it).
  client.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  // The -wal and -shm exist once the first statement has read the file in WAL mode.
  if (onDisk) restrictToOwner(path);
  return drizzle({ client, schema }) as DirectoryDb;
}

/**
 * Once a server is about to answer requests: its connection no longer sleeps on a lock held by
 * another process (SERVING_BUSY_TIMEOUT_MS); its writes (all of them go through the
 * connection's GroupCommit) wait up to `lockWaitMs` from a timer, then answer 503.
 */
export function serveWithoutBlocking(db: DirectoryDb, lockWaitMs: number, log: Logger): void {
  db.$client.exec(`PRAGMA busy_timeout = ${SERVING_BUSY_TIMEOUT_MS}`);
  GroupCommit.of(db.$client).waitForLocks(lockWaitMs, log);
}

/**
 * Leaves the database whole in its main file: a TRUNCATE checkpoint copies every committed
 * page out of the write-ahead log and empties it, so the .db file alone is a complete copy.
 * (Bun's close(true) does not finalize statements made with prepare(), which the stores keep,
 * and would throw "database is locked"; close() lets SQLite release the handle when the
 * process ends, with nothing left to replay.) Every command that opens the database closes it here.
 */
export function closeDatabase(db: DirectoryDb, log?: Logger): void {
  try {
    const result = db.$client.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
    if (result?.busy) log?.warn("database checkpoint incomplete: another process was reading; the WAL will be replayed at next open");
  } catch (error) {
    log?.warn("database checkpoint failed", { error: error instanceof Error ? error.message : String(error) });
  }
  db.$client.close();
  log?.info("database closed");
}
