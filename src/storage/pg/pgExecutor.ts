import * as pgSchema from "../../../db/schema.pg.ts";
import { awaitToEnd, type Bound, type Db, type Executor, type OpBuilder, type Prepared, type Runnable, type Step, type Tables } from "../executor.ts";
import type { PgDb } from "./pgDatabase.ts";

/**
 * The documented boundary of src/storage/executor.ts: stores are typed against SQLite's
 * builders and tables; here they get PostgreSQL's, which take the same calls for what stores
 * use and return the same row types (db/schema.pg.ts is generated from the declaration
 * db/schema.ts comes from; test/unit/schema-dialects.test.ts compares the row types). Each store's
 * tests run on both dialects, so a call one dialect lacks fails there, not in production.
 */
const tables = pgSchema as unknown as Tables;
const asDb = (pg: unknown) => pg as Db;

/** A PostgreSQL builder is a promise of its result: rows for a select or a write with RETURNING. */
async function execute(step: Step): Promise<unknown> {
  const result = (await (step.query as unknown as PromiseLike<unknown[]>)) ?? [];
  if (step.kind === "rows") return result;
  if (step.kind === "row") return result[0];
  return undefined;
}

/**
 * The stores' executor over PostgreSQL (DATABASE_URL): each statement awaited in turn, a
 * write's statements in one transaction. Give it the pool wrapped by withDeadlines
 * (pgDeadline.ts) on the request path, so each statement answers in time or fails uncommitted.
 */
export class PgExecutor implements Executor {
  readonly dialect = "postgres";
  readonly t = tables;

  constructor(readonly pg: PgDb) {}

  read<T>(op: OpBuilder<T>): Promise<T> {
    return awaitToEnd(op(asDb(this.pg), tables), execute);
  }

  write<T>(op: OpBuilder<T>): Promise<T> {
    return this.pg.transaction((tx) => awaitToEnd(op(asDb(tx), tables), execute));
  }

  apply<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Promise<ReturnType<Q["all"]>> {
    return execute({ kind: "rows", query: build(asDb(this.pg), tables) }) as Promise<ReturnType<Q["all"]>>;
  }

  rows<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Promise<ReturnType<Q["all"]>> {
    return execute({ kind: "rows", query: build(asDb(this.pg), tables) }) as Promise<ReturnType<Q["all"]>>;
  }

  row<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Promise<ReturnType<Q["get"]>> {
    return execute({ kind: "row", query: build(asDb(this.pg), tables) }) as Promise<ReturnType<Q["get"]>>;
  }

  /**
   * Built anew at each use on the `db` it is bound with (the operation's transaction, or the
   * pool), and run with the values by drizzle's execute: a promise, as `execute` above awaits.
   */
  prepare<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Prepared<Q> {
    return {
      bind: (db, values) => {
        const query = build(db, tables) as unknown as { execute(values: Record<string, unknown>): Promise<unknown> };
        return { then: (resolve, reject) => query.execute(values).then(resolve, reject) } as PromiseLike<unknown> as unknown as Bound<Q>;
      },
    };
  }

  forUpdate<Q extends Runnable>(query: Q, options?: { skipLocked: true }): Q {
    // Typed as SQLite's select (which has no .for()); at run time it is PostgreSQL's, which does.
    return (query as unknown as { for(strength: "update", config?: { skipLocked?: boolean }): Q }).for("update", options);
  }
}
