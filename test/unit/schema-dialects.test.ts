import { describe, expect, test } from "bun:test";
import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import * as pg from "../../db/schema.pg.ts";
import * as sqlite from "../../db/schema.ts";
import { tables } from "../../db/tables.ts";
import { columnsIn, type Dialect, DIALECTS, type OnlyIn, sqlName } from "../../db/tableSpec.ts";

/**
 * db/schema.ts (SQLite) and db/schema.pg.ts (PostgreSQL), both generated from db/tables.ts, declare
 * the same tables: same names, same columns, same TypeScript row types, so rows move between the
 * dialects unchanged (the seed into PostgreSQL, each instance's directory replica). A column one
 * dialect alone has is the one db/tables.ts declares `only` that dialect, and no other. The types
 * are compared by tsc (this file is in tsconfig's include: a difference fails `tsc --noEmit`),
 * the names and nullability here at run time.
 */

/** true when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Row<T extends { $inferSelect: unknown }> = T["$inferSelect"];
type TableKey = keyof typeof tables;
/** A table's row in the dialect, less the columns only that dialect has (read from db/tables.ts). */
type SharedRow<K extends TableKey, Schema extends Record<TableKey, { $inferSelect: unknown }>, D extends Dialect> = Omit<
  Row<Schema[K]>,
  OnlyIn<(typeof tables)[K], D>
>;
type SameRow<K extends TableKey> = Equal<SharedRow<K, typeof sqlite, "sqlite">, SharedRow<K, typeof pg, "pg">>;

// Compile-time: one line per table. A changed column type in either file is a tsc error here
// (`true` is not assignable to `false`), and a table of db/tables.ts missing from this list is one too.
const sameRows: { [K in TableKey]: SameRow<K> } = {
  workspaces: true,
  apiKeys: true,
  brokers: true,
  brokerLocations: true,
  brokerLines: true,
  reviews: true,
  meta: true,
  directoryChanges: true,
  carriers: true,
  quotes: true,
  leads: true,
  leadEvents: true,
  consoleLinks: true,
  consoleSessions: true,
  keyUsageDaily: true,
  idempotencyRecords: true,
  directoryAudit: true,
  webhookEndpoints: true,
  webhookEvents: true,
  webhookDeliveries: true,
};

function tablesOf(schema: Record<string, unknown>): Map<string, Table> {
  return new Map(Object.entries(schema).filter((entry): entry is [string, Table] => is(entry[1], Table)));
}

const schemas: Record<Dialect, Map<string, Table>> = { sqlite: tablesOf(sqlite), pg: tablesOf(pg) };
const tableSpecs = Object.entries(tables);

/** `key:sql_name` of each column, in order. */
const columnNames = (columns: Record<string, { name: string }>) => Object.entries(columns).map(([key, c]) => `${key}:${c.name}`);

describe("the SQLite and PostgreSQL schemas", () => {
  test("declare the tables of db/tables.ts under the same export names, each compared by type above", () => {
    const declared = tableSpecs.map(([key]) => key).sort();
    for (const dialect of DIALECTS) expect({ dialect, tables: [...schemas[dialect].keys()].sort() }).toEqual({ dialect, tables: declared });
    expect(Object.keys(sameRows).sort()).toEqual(declared);
  });

  test("give each table the same SQL name and, but for the declared dialect-only ones, the same columns", () => {
    for (const [key, spec] of tableSpecs) {
      const [lite, twin] = [schemas.sqlite.get(key)!, schemas.pg.get(key)!];
      expect(getTableName(lite)).toBe(spec.sqlName);
      expect(getTableName(twin)).toBe(spec.sqlName);
      const onlyIn = (dialect: Dialect) => columnsIn(spec, dialect).filter(([, c]) => c.facts.only === dialect).map(([k]) => k);
      const shared = (table: Table, dialect: Dialect) =>
        columnNames(getTableColumns(table)).filter((c) => !onlyIn(dialect).includes(c.split(":")[0]!));
      expect({ table: key, columns: shared(twin, "pg") }).toEqual({ table: key, columns: shared(lite, "sqlite") });
    }
  });

  test("have in each dialect exactly the columns db/tables.ts declares for it, dialect-only ones included", () => {
    for (const [key, spec] of tableSpecs) {
      for (const dialect of DIALECTS) {
        const declared = columnsIn(spec, dialect).map(([k]) => `${k}:${sqlName(k)}`);
        expect({ table: key, dialect, columns: columnNames(getTableColumns(schemas[dialect].get(key)!)) }).toEqual({ table: key, dialect, columns: declared });
      }
    }
  });

  test("agree on which columns may be null, as db/tables.ts declares", () => {
    for (const [key, spec] of tableSpecs) {
      for (const dialect of DIALECTS) {
        const columns = getTableColumns(schemas[dialect].get(key)!);
        for (const [name, column] of columnsIn(spec, dialect)) {
          const notNull = column.facts.notNull || column.facts.primaryKey.includes(dialect);
          expect({ column: `${key}.${name}`, dialect, notNull: columns[name]?.notNull }).toEqual({ column: `${key}.${name}`, dialect, notNull });
        }
      }
      const pgColumns = getTableColumns(schemas.pg.get(key)!);
      for (const [name, column] of Object.entries(getTableColumns(schemas.sqlite.get(key)!))) {
        if (!pgColumns[name]) continue;
        expect({ column: `${key}.${name}`, notNull: pgColumns[name].notNull }).toEqual({ column: `${key}.${name}`, notNull: column.notNull });
      }
    }
  });
});
