import * as schema from "../../../db/schema.ts";
import { runToEnd, type Bound, type Db, type Executor, type OpBuilder, type Prepared, type Runnable, type Step, type Tables } from "../executor.ts";
import type { DirectoryDb } from "./database.ts";
import { GroupCommit } from "./groupCommit.ts";

/** drizzle's prepared SQLite query: each call takes the placeholders' values. */
interface PreparedQuery {
  all(values: Record<string, unknown>): unknown;
  get(values: Record<string, unknown>): unknown;
  run(values: Record<string, unknown>): unknown;
}

/** The one executor of each connection (stores made on the same connection share it, and its group commit). */
const byConnection = new WeakMap<DirectoryDb, SqliteExecutor>();

function execute(step: Step): unknown {
  if (step.kind === "rows") return step.query.all();
  if (step.kind === "row") return step.query.get();
  step.query.run();
  return undefined;
}

/**
 * The stores' executor over SQLite (src/storage/executor.ts): reads run synchronously on the
 * connection, writes join its group commit (GroupCommit: every write of a turn in one
 * transaction, acknowledged after COMMIT).
 */
export class SqliteExecutor implements Executor {
  readonly dialect = "sqlite";
  readonly t = schema;
  private readonly writes: GroupCommit;

  static of(db: DirectoryDb): SqliteExecutor {
    let x = byConnection.get(db);
    if (!x) byConnection.set(db, (x = new SqliteExecutor(db)));
    return x;
  }

  private constructor(readonly db: DirectoryDb) {
    this.writes = GroupCommit.of(db.$client);
  }

  read<T>(op: OpBuilder<T>): T {
    return runToEnd(op(this.db, schema), execute);
  }

  write<T>(op: OpBuilder<T>): Promise<T> {
    return this.writes.write(() => runToEnd(op(this.db, schema), execute));
  }

  apply<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Promise<ReturnType<Q["all"]>> {
    return this.writes.write(() => build(this.db, schema).all() as ReturnType<Q["all"]>);
  }

  rows<Q extends Runnable>(build: (db: Db, t: Tables) => Q): ReturnType<Q["all"]> {
    return build(this.db, schema).all() as ReturnType<Q["all"]>;
  }

  row<Q extends Runnable>(build: (db: Db, t: Tables) => Q): ReturnType<Q["get"]> {
    return build(this.db, schema).get() as ReturnType<Q["get"]>;
  }

  /**
   * Prepared once on this connection; `bind` ignores the `db` it is given, which with SQLite is
   * always this connection (a group-commit write runs on it between its BEGIN and COMMIT).
   */
  prepare<Q extends Runnable>(build: (db: Db, t: Tables) => Q): Prepared<Q> {
    // drizzle's SQLite builders all have prepare(); a Runnable does not say so.
    const prepared = (build(this.db, schema) as unknown as { prepare(): PreparedQuery }).prepare();
    return {
      bind: (_db, values) => ({
        all: () => prepared.all(values),
        get: () => prepared.get(values),
        run: () => prepared.run(values),
      }) as Bound<Q>,
    };
  }

  /** Unchanged: a write already holds the database's lock (BEGIN IMMEDIATE), and SQLite has no FOR UPDATE. */
  forUpdate<Q extends Runnable>(query: Q): Q {
    return query;
  }
}
