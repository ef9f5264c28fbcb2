import { describe, expect, test } from "bun:test";
import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import * as pg from "../../db/schema.pg.ts";
import * as sqlite from "../../db/schema.ts";

/**
 * db/schema.ts (SQLite) and db/schema.pg.ts (PostgreSQL) declare the same tables: same names,
 * same columns, same TypeScript row types, so rows move between the dialects unchanged (the seed
 * into PostgreSQL, each instance's directory replica). The types are compared by tsc (this file is
 * in tsconfig's include: a difference fails `tsc --noEmit`), the names here at run time.
 */

/** true when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Row<T extends { $inferSelect: unknown }> = T["$inferSelect"];

/** The one column PostgreSQL has and SQLite does not: leads.seq stands for SQLite's rowid. */
const PG_ONLY_COLUMNS: Record<string, readonly string[]> = { leads: ["seq"] };

// Compile-time: one line per table. A changed column type in either file is a tsc error here.
const sameRows = {
  workspaces: true satisfies Equal<Row<typeof sqlite.workspaces>, Row<typeof pg.workspaces>>,
  apiKeys: true satisfies Equal<Row<typeof sqlite.apiKeys>, Row<typeof pg.apiKeys>>,
  brokers: true satisfies Equal<Row<typeof sqlite.brokers>, Row<typeof pg.brokers>>,
  brokerLocations: true satisfies Equal<Row<typeof sqlite.brokerLocations>, Row<typeof pg.brokerLocations>>,
  brokerLines: true satisfies Equal<Row<typeof sqlite.brokerLines>, Row<typeof pg.brokerLines>>,
  reviews: true satisfies Equal<Row<typeof sqlite.reviews>, Row<typeof pg.reviews>>,
  meta: true satisfies Equal<Row<typeof sqlite.meta>, Row<typeof pg.meta>>,
  directoryChanges: true satisfies Equal<Row<typeof sqlite.directoryChanges>, Row<typeof pg.directoryChanges>>,
  carriers: true satisfies Equal<Row<typeof sqlite.carriers>, Row<typeof pg.carriers>>,
  quotes: true satisfies Equal<Row<typeof sqlite.quotes>, Row<typeof pg.quotes>>,
  leads: true satisfies Equal<Row<typeof sqlite.leads>, Omit<Row<typeof pg.leads>, "seq">>,
  leadEvents: true satisfies Equal<Row<typeof sqlite.leadEvents>, Row<typeof pg.leadEvents>>,
  consoleLinks: true satisfies Equal<Row<typeof sqlite.consoleLinks>, Row<typeof pg.consoleLinks>>,
  consoleSessions: true satisfies Equal<Row<typeof sqlite.consoleSessions>, Row<typeof pg.consoleSessions>>,
  keyUsageDaily: true satisfies Equal<Row<typeof sqlite.keyUsageDaily>, Row<typeof pg.keyUsageDaily>>,
};

function tablesOf(schema: Record<string, unknown>): Map<string, Table> {
  return new Map(Object.entries(schema).filter((entry): entry is [string, Table] => is(entry[1], Table)));
}

describe("the SQLite and PostgreSQL schemas", () => {
  const sqliteTables = tablesOf(sqlite);
  const pgTables = tablesOf(pg);

  test("declare the same tables under the same export names, each compared by type above", () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
    expect(Object.keys(sameRows).sort()).toEqual([...sqliteTables.keys()].sort());
  });

  test("give each table the same SQL name and the same columns (keys and SQL names)", () => {
    for (const [key, table] of sqliteTables) {
      const twin = pgTables.get(key)!;
      expect(getTableName(twin)).toBe(getTableName(table));
      const columns = (t: Table) => Object.entries(getTableColumns(t)).map(([k, c]) => `${k}:${c.name}`);
      const pgOnly = new Set(PG_ONLY_COLUMNS[getTableName(table)] ?? []);
      const twinColumns = columns(twin).filter((c) => !pgOnly.has(c.split(":")[1]!));
      expect({ table: key, columns: twinColumns }).toEqual({ table: key, columns: columns(table) });
    }
  });

  test("agree on which columns may be null", () => {
    for (const [key, table] of sqliteTables) {
      const twin = getTableColumns(pgTables.get(key)!);
      for (const [name, column] of Object.entries(getTableColumns(table))) {
        expect({ column: `${key}.${name}`, notNull: twin[name]?.notNull }).toEqual({ column: `${key}.${name}`, notNull: column.notNull });
      }
    }
  });
});
