import { sql, type Placeholder } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type * as schema from "../../db/schema.ts";

/**
 * The one surface a store is written against, for SQLite and PostgreSQL alike (issue 26).
 *
 * A store's operation is a generator that builds drizzle queries and `yield*`s each one
 * through `rows`, `row` or `run`; the dialect's executor runs them and hands the results back.
 * With SQLite the whole operation runs synchronously (a read answers at once; a write is one
 * piece of a group-commit batch, BEGIN to COMMIT in one callback). With PostgreSQL each
 * statement is awaited (a write inside one transaction). So the queries are written once, and
 * SQLite keeps its synchronous reads without a promise in the way.
 *
 * @example
 * // A read: one statement, answered synchronously by SQLite.
 * const link = x.row((db, t) => db.select().from(t.consoleLinks).where(eq(t.consoleLinks.tokenHash, hash)));
 * // A write of several statements, atomic in both dialects:
 * await x.write(function* (db, t) {
 *   yield* run(db.delete(t.consoleLinks).where(lt(t.consoleLinks.expiresAt, now)));
 *   yield* run(db.insert(t.consoleLinks).values(link));
 * });
 *
 * Typing: stores are typed against drizzle's SQLite builders and tables (db/schema.ts). The
 * PostgreSQL executor hands them PostgreSQL's builders and tables (db/schema.pg.ts, generated
 * from the same declaration, with the same row types: test/unit/schema-dialects.test.ts), which
 * take the same calls for what stores use: select / insert / update / delete, where, orderBy,
 * limit, offset, returning, onConflictDoNothing / DoUpdate, and `sql` fragments written in the
 * SQL both dialects share. That cast is the documented boundary (src/storage/pg/pgExecutor.ts);
 * the store tests run every store on both dialects.
 */

/** The query builder a store builds with (SQLite's types; PostgreSQL's builders at run time with DATABASE_URL). */
export type Db = Omit<BunSQLiteDatabase<typeof schema>, "$client" | "transaction" | "batch">;
/** The dialect's tables, by the names db/tables.ts declares. */
export type Tables = typeof schema;

/** What SQLite's builders can do, and so what a step may carry. */
export interface Runnable {
  all(): unknown;
  get(): unknown;
  run(): unknown;
}

/** One statement of an operation and how its result is wanted. */
export interface Step {
  kind: "rows" | "row" | "run";
  query: Runnable;
}

/** A store's operation: statements yielded one after another, then its result. */
export type Op<T> = Generator<Step, T, unknown>;
/** How a store writes an operation once for both dialects. */
export type OpBuilder<T> = (db: Db, t: Tables) => Op<T>;
/** A value now (SQLite) or later (PostgreSQL). */
export type Awaitable<T> = T | Promise<T>;

/** Every row the query returns (a select, or a write with `.returning()`). */
export function* rows<Q extends Runnable>(query: Q): Generator<Step, ReturnType<Q["all"]>, unknown> {
  return (yield { kind: "rows", query }) as ReturnType<Q["all"]>;
}

/** The first row the query returns, or undefined (add `.limit(1)` where more could match). */
export function* row<Q extends Runnable>(query: Q): Generator<Step, ReturnType<Q["get"]>, unknown> {
  return (yield { kind: "row", query }) as ReturnType<Q["get"]>;
}

/**
 * A statement built once with `sql.placeholder(name)` where its values go, and bound to values
 * on each use (Executor.prepare). `bind` gives a query to `yield*` through rows, row or run
 * inside an operation, or to hand to apply / rows / row.
 */
export interface Prepared<Q extends Runnable> {
  bind(db: Db, values: Record<string, unknown>): Bound<Q>;
}

/** A prepared statement with its values: runs as the query it was built from would. */
export interface Bound<Q extends Runnable> extends Runnable {
  all(): ReturnType<Q["all"]>;
  get(): ReturnType<Q["get"]>;
}

/** A placeholder named after each column: the values of a prepared insert of whole rows, bound with the row itself. */
export function placeholders<K extends string>(names: readonly K[]): Record<K, Placeholder<K>> {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Record<K, Placeholder<K>>;
}

/** Runs a statement whose rows are not wanted. */
export function* run(query: Runnable): Generator<Step, void, unknown> {
  yield { kind: "run", query };
}

export interface Executor {
  readonly dialect: "sqlite" | "postgres";
  /** The dialect's tables (for building queries outside an operation: prepared statements). */
  readonly t: Tables;
  /** Runs a read-only operation: at once with SQLite, over the network with PostgreSQL. */
  read<T>(op: OpBuilder<T>): Awaitable<T>;
  /**
   * Runs an operation as one atomic write; resolves once it is committed. SQLite: in the next
   * group-commit batch (the builder may run twice: a batch whose other write failed is replayed
   * with savepoints, so it must do nothing but run statements). PostgreSQL: one transaction.
   */
  write<T>(op: OpBuilder<T>): Promise<T>;
  /** One write statement, its rows returned (empty without `.returning()`): no transaction of its own with PostgreSQL. */
  apply<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Promise<ReturnType<Q["all"]>>;
  /** Every row of one select. */
  rows<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Awaitable<ReturnType<Q["all"]>>;
  /** The first row of one select, or undefined. */
  row<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Awaitable<ReturnType<Q["get"]>>;
  /**
   * The select, locking the rows it reads until the write commits, for a check-then-write that
   * concurrent writes must not interleave (count, then insert under a maximum). PostgreSQL: FOR
   * UPDATE, so another transaction locking the same rows waits its turn (with `skipLocked`, FOR
   * UPDATE SKIP LOCKED: rows another transaction holds are passed over, so several instances
   * claiming work each take different rows). SQLite: the select unchanged, since a write holds
   * the whole database's lock from BEGIN IMMEDIATE.
   */
  forUpdate<Q extends Runnable>(query: Q, options?: { skipLocked: true }): Q;
  /**
   * A statement for a store's hot path, built once with `sql.placeholder`s. SQLite prepares it
   * once on the connection (drizzle's build and SQLite's prepare cost a lead POST 50–90 µs a
   * statement, measured with `bun --cpu-prof`: issue 28's bench); PostgreSQL builds it in
   * the operation's transaction at each use (its round trip dwarfs the build), so it runs
   * wherever the `db` it is bound with runs.
   *
   * @example
   * const byKey = x.prepare((db, t) => db.select().from(t.idempotencyRecords).where(eq(t.idempotencyRecords.key, sql.placeholder("key"))));
   * const record = yield* row(byKey.bind(db, { key }));
   */
  prepare<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Prepared<Q>;
}

/** Runs an operation's steps synchronously (SQLite), passing each result back; a failed statement is thrown into the operation. */
export function runToEnd<T>(op: Op<T>, execute: (step: Step) => unknown): T {
  let next = op.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = execute(next.value);
    } catch (error) {
      next = op.throw(error);
      continue;
    }
    next = op.next(result);
  }
  return next.value;
}

/** Runs an operation's steps one after another, awaiting each (PostgreSQL). */
export async function awaitToEnd<T>(op: Op<T>, execute: (step: Step) => Promise<unknown>): Promise<T> {
  let next = op.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = await execute(next.value);
    } catch (error) {
      next = op.throw(error);
      continue;
    }
    next = op.next(result);
  }
  return next.value;
}
