import type { Executor } from "../../src/storage/executor.ts";

/**
 * The same executor, no longer recognisable as SQLite's: a store's SQLite specialisations
 * (chosen by `instanceof SqliteExecutor`, e.g. QuoteStore's prepared statements) are skipped,
 * so the queries PostgreSQL runs can be tested, and timed, on SQLite.
 */
export function plainExecutor(x: Executor): Executor {
  return {
    dialect: x.dialect,
    t: x.t,
    read: (op) => x.read(op),
    write: (op) => x.write(op),
    apply: (build) => x.apply(build),
    rows: (build) => x.rows(build),
    row: (build) => x.row(build),
    forUpdate: (query) => x.forUpdate(query),
    // As PostgreSQL's: the statement built anew on the db it is bound with, the values filled in at each run.
    prepare: (build) => ({
      bind: (db, values) => {
        const query = build(db, x.t) as unknown as { all(v: object): never; get(v: object): never; run(v: object): never };
        return { all: () => query.all(values), get: () => query.get(values), run: () => query.run(values) };
      },
    }),
  };
}
