import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import * as schema from "../../../db/schema.pg.ts";
import type { PgDb } from "./pgDatabase.ts";

/** A statement's deadline passed: a storage fault "unavailable" (503 + Retry-After), nothing written. */
export class DatabaseTimeoutError extends Error {
  readonly code = "DATABASE_TIMEOUT";
  constructor(timeoutMs: number) {
    super(`PostgreSQL did not answer within ${timeoutMs} ms`);
  }
}

/** Only a SELECT runs as it is: any other statement may write, so it runs in a guarded transaction. */
const READ_ONLY = /^\s*select\b/i;

type Statement = postgres.PendingQuery<postgres.Row[]>;
type Work<T> = (sql: postgres.TransactionSql) => Promise<T> | T;

/**
 * The same pool, for the request path (the workspace stores): every statement answers within
 * `timeoutMs`, or fails with DatabaseTimeoutError and is never committed afterwards.
 *
 * Why both halves are needed: postgres.js queues a statement while it has no connection and sends
 * it whenever one opens, so a write the client gave up on during an outage would commit after
 * the restart (issue 25, item 13). Cancelling a queued query is not safe either (a cancelled
 * first query of a connection leaves that connection stuck in "connecting"). So:
 * - a read (SELECT) is raced against the deadline; if it runs later, its answer is dropped;
 * - a write, and every transaction, runs as BEGIN; SET LOCAL statement_timeout (the time left,
 *   so the server ends a stuck statement too); the work; COMMIT only if the deadline has not
 *   passed, else ROLLBACK. A BEGIN that waited in the queue past the deadline therefore rolls
 *   back at once, whenever it runs. Once COMMIT is on its way, the answer waits for its outcome
 *   (at most another `timeoutMs`), so "503" means "not committed" except when the server stops
 *   answering in the instant between COMMIT and its reply.
 * The bound is per statement; a store's write is one or two statements.
 */
export function withDeadlines(pg: PgDb, timeoutMs: number): PgDb {
  const client = pg.$client;

  function transaction<T>(work: Work<T>, mode = ""): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    const left = () => Math.floor(deadline - performance.now());
    let committing = false;
    const done = client.begin(mode, async (sql) => {
      if (left() <= 0) throw new DatabaseTimeoutError(timeoutMs);
      await sql.unsafe(`SET LOCAL statement_timeout = ${Math.max(1, left())}`);
      const result = await work(sql);
      if (left() <= 0) throw new DatabaseTimeoutError(timeoutMs);
      committing = true;
      return result;
    }) as Promise<T>;
    return new Promise<T>((resolve, reject) => {
      const giveUp = () => reject(new DatabaseTimeoutError(timeoutMs));
      let timer = setTimeout(() => {
        if (committing) timer = setTimeout(giveUp, timeoutMs);
        else giveUp();
      }, timeoutMs);
      done.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  function read<T>(query: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new DatabaseTimeoutError(timeoutMs)), timeoutMs);
      query.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  const unsafe = (query: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
    new LazyStatement((values) => {
      const shaped = (statement: Statement) => (values ? statement.values() : statement) as Promise<unknown>;
      return READ_ONLY.test(query) ? read(shaped(client.unsafe(query, params, options))) : transaction((sql) => shaped(sql.unsafe(query, params, options)));
    });
  const begin = (modeOrWork: string | Work<unknown>, work?: Work<unknown>) =>
    typeof modeOrWork === "string" ? transaction(work!, modeOrWork) : transaction(modeOrWork);

  const bounded = new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") return unsafe;
      if (property === "begin") return begin;
      return Reflect.get(target, property, receiver);
    },
  });
  return drizzle({ client: bounded, schema }) as PgDb;
}

/**
 * What `unsafe` answers drizzle: like postgres.js's own query, it starts when awaited and takes
 * `.values()` (rows as arrays) before that; it then runs as withDeadlines decides.
 */
class LazyStatement implements PromiseLike<unknown> {
  #values = false;
  #running: Promise<unknown> | undefined;

  constructor(private readonly start: (values: boolean) => Promise<unknown>) {}

  values(): this {
    this.#values = true;
    return this;
  }

  then<A = unknown, B = never>(onfulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.#running ??= this.start(this.#values);
    return this.#running.then(onfulfilled, onrejected);
  }
}
