import type { Database } from "bun:sqlite";
import { eq, inArray, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type postgres from "postgres";
import type { PgTable } from "drizzle-orm/pg-core";
import { insertIntoPgTable } from "../pg/pgRowInsert.ts";
import { sqliteTableInserter } from "../sqlite/tableInserter.ts";
import { SqliteExecutor } from "../sqlite/sqliteExecutor.ts";
import type { RowError } from "../../importing/rowError.ts";
import { row, rows, run, type Db, type Executor, type Op, type Runnable, type Tables } from "../executor.ts";

/** How a run of an import writes: who and why (the audit trail), when, and whether to write at all (`--dry-run` does not). */
export interface ImportWrite {
  actor: string;
  reason: string;
  now: number;
  /** false: every row is checked against the directory as it stands and classified, and nothing is written. */
  write: boolean;
  /**
   * Brokers: whether the file can give an office its own phone. A CSV cannot (no column): an
   * office it gives without one keeps the phone stored for the same office (same address and
   * postal code), so a CSV round trip changes nothing.
   */
  officePhones?: boolean;
}

/** A record as the import hands it to a store: where it is in the file, and the record. */
export interface ImportItem<T> {
  line: number;
  record: T;
  /**
   * The write API (issue 27 section 2) names the broker itself: its id (the record is that
   * broker, whatever its externalId or slug), or "new" (the record must make a broker: an
   * externalId another broker holds is refused, not updated). An import leaves it out.
   */
  target?: number | "new";
}

/** What became of one record (the `--report` line): its key, and the id the directory gave it. */
export type RowOutcome =
  | { line: number; key: string; outcome: "created" | "updated" | "unchanged"; id: number }
  | { line: number; key: string; outcome: "failed"; errors: RowError[] };

/** Keys a statement's `IN (…)` list carries at most: well under both dialects' parameter limits. */
const IN_LIST = 500;

/** The rows of `select … where column in (keys)`, in lists of IN_LIST keys. */
export function* rowsWhereIn<R>(keys: readonly string[] | readonly number[], select: (chunk: readonly (string | number)[]) => Runnable): Op<R[]> {
  const found: R[] = [];
  for (let i = 0; i < keys.length; i += IN_LIST) found.push(...((yield* rows(select(keys.slice(i, i + IN_LIST)))) as R[]));
  return found;
}

/** The highest id a `select max(id)` query finds (0 when empty): new rows are numbered after it, under the write lock (see lockDirectory). */
export function* highestId(query: Runnable): Op<number> {
  const found = (yield* row(query)) as { n: number | string | null } | undefined;
  return Number(found?.n ?? 0);
}

/**
 * Takes the directory's write lock for the rest of the transaction, so ids numbered max + 1 are
 * this writer's alone. SQLite: a write already holds the whole database's lock (BEGIN
 * IMMEDIATE). PostgreSQL: the `directory_version` row, locked FOR UPDATE; every write to the
 * directory tables updates that row (its version trigger), so every other directory writer
 * queues behind this transaction, and two imports cannot number the same id.
 */
export function* lockDirectory(x: Executor, db: Db, t: Tables): Op<void> {
  yield* row(x.forUpdate(db.select({ value: t.meta.value }).from(t.meta).where(eq(t.meta.key, "directory_version"))));
}

/**
 * PostgreSQL only: this transaction's rows skip the per-row triggers (broker_directory.bulk_load,
 * as the seed does), and the writer journals its changes itself, once per broker (journalChanges).
 * Row by row, every office, line and review inserted a change and trimmed the journal in a
 * statement of its own; the trims walked ever more dead rows, and 20,000 brokers took minutes
 * (SQLite's triggers, which delete for real, stay as they are). The statement-level version
 * triggers still fire, so the version moves and every instance is told.
 */
export function* skipRowTriggers(x: Executor, db: Db, t: Tables): Op<void> {
  if (x.dialect !== "postgres") return;
  yield* row(db.select({ on: sql`set_config('broker_directory.bulk_load', 'on', true)` }).from(t.meta).limit(1));
}

/**
 * PostgreSQL only, after skipRowTriggers: what the row triggers would have done for these
 * brokers, once each. With `ratings`, their rating aggregates are recounted from their published
 * reviews (recount_broker_ratings, the triggers' own function) and the change is ratings-only;
 * else the change says the broker itself changed. Replicas follow the journal as ever.
 */
export function* journalChanges(x: Executor, db: Db, t: Tables, brokerIds: Iterable<number>, ratings: boolean): Op<void> {
  if (x.dialect !== "postgres") return;
  const ids = [...new Set(brokerIds)];
  for (let i = 0; i < ids.length; i += IN_LIST) {
    const chunk = ids.slice(i, i + IN_LIST);
    if (ratings) yield* rows(db.select({ done: sql`recount_broker_ratings(${t.brokers.id})` }).from(t.brokers).where(inArray(t.brokers.id, chunk)));
    yield* run(db.insert(t.directoryChanges).values(chunk.map((brokerId) => ({ brokerId, ratingsOnly: ratings }))));
  }
}

/** Rows a multi-row INSERT carries over PostgreSQL (brokers have 28 columns: 14,000 parameters, under its 65,535). */
const INSERT_ROWS = 500;
const inserters = new WeakMap<Database, Map<SQLiteTable, (rows: readonly object[]) => void>>();

/**
 * Inserts rows in the caller's write. SQLite: one prepared single-row INSERT run per row (SQLite's
 * fastest way in, as the seed and the replica load): building drizzle's multi-row INSERTs was half
 * of a reviews import's time (profiled: 240,000 reviews). PostgreSQL: multi-row INSERTs built by
 * postgres.js in the write's transaction (pgTransactionClient), as the seed's copy writes them.
 */
export function* insertRows(x: Executor, db: Db, table: SQLiteTable, values: readonly object[]): Op<void> {
  if (values.length === 0) return;
  if (x instanceof SqliteExecutor) {
    const client = x.db.$client;
    let byTable = inserters.get(client);
    if (!byTable) inserters.set(client, (byTable = new Map()));
    let insert = byTable.get(table);
    if (!insert) byTable.set(table, (insert = sqliteTableInserter(client, table)));
    const inserter = insert;
    // A step like any other: run where the executor runs steps, inside the write's transaction.
    yield* run({ run: () => inserter(values), all: () => [], get: () => undefined });
    return;
  }
  const client = pgTransactionClient(db);
  if (client) {
    // Awaited by the PostgreSQL executor as any statement is: a thenable in the write's transaction.
    const insert = { then: (resolve: (value: unknown) => void, reject: (error: unknown) => void) => insertIntoPgTable(client, table as unknown as PgTable, values).then(() => resolve([]), reject) };
    yield* run(insert as unknown as Runnable);
    return;
  }
  for (let i = 0; i < values.length; i += INSERT_ROWS) yield* run(db.insert(table).values(values.slice(i, i + INSERT_ROWS) as never));
}

/**
 * The postgres.js transaction under a drizzle PostgreSQL transaction (its session's client),
 * for postgres.js's own multi-row INSERT: drizzle building 500-row INSERTs was 38% of a reviews
 * import's CPU over PostgreSQL (profiled: 5,000 reviews), the same statement built by postgres.js
 * 2.5 times faster (insertIntoPg). Undefined where the shape is not that one (then drizzle inserts).
 */
function pgTransactionClient(db: Db): postgres.TransactionSql | undefined {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return typeof client === "function" ? (client as postgres.TransactionSql) : undefined;
}

/** Runs the operation as one write, or (`write` false) as a read that writes nothing. */
export async function runImportOp<T>(x: Executor, write: boolean, op: (db: Db, t: Tables) => Op<T>): Promise<T> {
  return write ? x.write(op) : x.read(op);
}
