import * as schema from "../../../db/schema.ts";
import { runToEnd, type Db, type Executor, type OpBuilder, type Runnable, type Step, type Tables } from "../executor.ts";
import type { DirectoryDb } from "./database.ts";
import { GroupCommit } from "./groupCommit.ts";

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

  /** Unchanged: a write already holds the database's lock (BEGIN IMMEDIATE), and SQLite has no FOR UPDATE. */
  forUpdate<Q extends Runnable>(query: Q): Q {
    return query;
  }
}
