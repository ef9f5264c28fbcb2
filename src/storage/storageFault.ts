import type { Database } from "bun:sqlite";

/**
 * The two ways the database refuses every write while reads go on: the disk (or the
 * database's max_page_count) is full, or the file is read-only (a read-only mount or file,
 * a file replaced under the running process, `PRAGMA query_only`). Neither is a fault of the
 * request or a bug of ours: the operator has to act, the client can only retry later.
 */
export type StorageFault = "full" | "read-only";

/** The fault an error (or its cause, e.g. inside a TRPCError) stands for, if any. */
export function storageFaultOf(error: unknown): StorageFault | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "SQLITE_FULL") return "full";
    // SQLITE_READONLY and its extended codes (_DBMOVED, _RECOVERY, _CANTLOCK, _DIRECTORY…).
    if (typeof code === "string" && code.startsWith("SQLITE_READONLY")) return "read-only";
  }
  return undefined;
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
