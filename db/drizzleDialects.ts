import type { ColumnKind, Dialect } from "./tableSpec.ts";

/**
 * What the words of db/tableSpec.ts are in each dialect's drizzle: the source text
 * db/generateSchemas.ts writes for them, and where it writes it.
 */
export interface DrizzleDialect {
  /** The generated file, from the repository's root. */
  readonly file: string;
  /** drizzle's module of the dialect's builders. */
  readonly module: string;
  /** The dialect's table function. */
  readonly table: string;
  /** Each kind's builder, and the options it takes after the column's name. */
  readonly kinds: { readonly [K in ColumnKind]: readonly [builder: string, options?: string] };
  /** A column's primary-key call; `identity`: numbered by the database. */
  primaryKey(identity: boolean): string;
  /**
   * What identity() adds at the end of a column; undefined where the dialect numbers rows only
   * through its primary-key call (SQLite's AUTOINCREMENT).
   */
  readonly identity: string | undefined;
}

export const DRIZZLE_DIALECTS: { readonly [D in Dialect]: DrizzleDialect } = {
  sqlite: {
    file: "db/schema.ts",
    module: "drizzle-orm/sqlite-core",
    table: "sqliteTable",
    kinds: {
      text: ["text"],
      int: ["integer"],
      bigint: ["integer"],
      real: ["real"],
      bool: ["integer", `{ mode: "boolean" }`],
      json: ["text", `{ mode: "json" }`],
    },
    primaryKey: (identity) => (identity ? ".primaryKey({ autoIncrement: true })" : ".primaryKey()"),
    identity: undefined,
  },
  pg: {
    file: "db/schema.pg.ts",
    module: "drizzle-orm/pg-core",
    table: "pgTable",
    kinds: {
      text: ["text"],
      int: ["integer"],
      bigint: ["bigint", `{ mode: "number" }`],
      real: ["doublePrecision"],
      bool: ["boolean"],
      json: ["jsonb"],
    },
    primaryKey: () => ".primaryKey()",
    identity: ".generatedAlwaysAsIdentity()",
  },
};
