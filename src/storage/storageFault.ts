import type { Database } from "bun:sqlite";

/**
 * The ways the database refuses work that are nobody's bug: the disk (or SQLite's
 * max_page_count) is full, or the database is read-only (a read-only mount or file, a file
 * replaced under the running process, `PRAGMA query_only`, a PostgreSQL standby), or, with
 * PostgreSQL (DATABASE_URL), the server cannot be reached at all (down, restarting, out of
 * connections). The operator has to act (or wait), the client can only retry later.
 */
export type StorageFault = "full" | "read-only" | "unavailable";

/** The error codes of an error and its causes (e.g. inside a TRPCError), outermost first. */
function* codesOf(error: unknown): Generator<string> {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") yield code;
  }
}

/** The fault an error (or its cause, e.g. inside a TRPCError) stands for, if any. */
export function storageFaultOf(error: unknown): StorageFault | undefined {
  for (const code of codesOf(error)) {
    if (code === "SQLITE_FULL") return "full";
    // SQLITE_READONLY and its extended codes (_DBMOVED, _RECOVERY, _CANTLOCK, _DIRECTORY…).
    if (code.startsWith("SQLITE_READONLY")) return "read-only";
    const pg = postgresFault(code);
    if (pg) return pg;
  }
  return undefined;
}

/**
 * Another connection (a `seed`, a CLI command, an import in another process) holds SQLite's
 * write lock and did not let go within the wait (src/storage/sqlite/groupCommit.ts). Not a fault: the
 * database works, it is busy; the client retries in a moment (errorVocabulary: 503).
 */
export function isBusyLock(error: unknown): boolean {
  for (const code of codesOf(error)) if (code.startsWith("SQLITE_BUSY")) return true;
  return false;
}

/**
 * What postgres.js reports when PostgreSQL is out of reach: the socket's own errors, the
 * driver's connection states, and the server's SQLSTATEs for "not now" (class 08 connection
 * exceptions; 57P01-57P03 shutting down or starting; 57014 a statement cancelled at its deadline; 53300 too many connections; 53100 disk
 * full; 25006 a read-only transaction, as on a standby).
 */
const POSTGRES_FAULTS: Record<string, StorageFault> = {
  ECONNREFUSED: "unavailable",
  ECONNRESET: "unavailable",
  ETIMEDOUT: "unavailable",
  EHOSTUNREACH: "unavailable",
  ENETUNREACH: "unavailable",
  EPIPE: "unavailable",
  ENOTFOUND: "unavailable",
  EAI_AGAIN: "unavailable",
  CONNECTION_ENDED: "unavailable",
  CONNECTION_CLOSED: "unavailable",
  CONNECTION_DESTROYED: "unavailable",
  CONNECT_TIMEOUT: "unavailable",
  // A request's statement past its deadline (src/storage/pg/pgDeadline.ts): ours, or the
  // server's statement_timeout (57014, query_canceled), which that deadline sets.
  DATABASE_TIMEOUT: "unavailable",
  "57014": "unavailable",
  "57P01": "unavailable",
  "57P02": "unavailable",
  "57P03": "unavailable",
  "53300": "unavailable",
  "53100": "full",
  "25006": "read-only",
};

function postgresFault(code: string): StorageFault | undefined {
  if (Object.hasOwn(POSTGRES_FAULTS, code)) return POSTGRES_FAULTS[code];
  // Class 08: connection exceptions (08000, 08001 cannot connect, 08006 connection failure…).
  return /^08[0-9A-Z]{3}$/.test(code) ? "unavailable" : undefined;
}

/**
 * One small real write, to learn whether writes work again: rewriting the header's
 * user_version (unused by this app) with its own value commits a transaction, which fails on
 * a read-only file and when the log cannot grow. A database at its max_page_count cannot take
 * a new page, which that write does not need, so it is checked by count.
 */
export function probeWrite(client: Database): void {
  const version = client.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
  client.exec(`PRAGMA user_version = ${Math.trunc(Number(version))}`);
  const pages = client.query<{ page_count: number }, []>("PRAGMA page_count").get()?.page_count ?? 0;
  const max = client.query<{ max_page_count: number }, []>("PRAGMA max_page_count").get()?.max_page_count ?? Infinity;
  if (pages >= max) throw Object.assign(new Error("database or disk is full (at max_page_count)"), { code: "SQLITE_FULL" });
}

/** Start-up needs a write it cannot do without (pending migrations): a one-line message, exit 1. */
export class DatabaseNotWritableError extends Error {}
