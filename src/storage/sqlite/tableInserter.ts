import type { Database } from "bun:sqlite";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A prepared INSERT of whole rows into any SQLite table of db/schema.ts, the values mapped by
 * the columns themselves (booleans to 0/1, JSON lists to text): one statement, run per row, is
 * SQLite's fastest way in. The caller holds the transaction. (An import writes the directory's
 * tables and the audit trail's with it; the replica copies PostgreSQL's rows in with it.)
 */
export function sqliteTableInserter(client: Database, target: SQLiteTable): (rows: readonly object[]) => void {
  const columns = Object.entries(getTableColumns(target));
  const statement = client.prepare(
    `INSERT INTO "${getTableName(target)}" (${columns.map(([, c]) => `"${c.name}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  return (rows) => {
    for (const row of rows) {
      const record = row as Record<string, unknown>;
      statement.run(...columns.map(([key, column]) => {
        // A value left out takes the column's plain default (a new broker's review_count 0), as drizzle's insert would.
        const value = record[key] === undefined && typeof column.default !== "object" ? column.default : record[key];
        return (value === null || value === undefined ? null : column.mapToDriverValue(value)) as never;
      }));
    }
  };
}
