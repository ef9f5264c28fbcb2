import type { DirectoryDb } from "../sqlite/database.ts";

/**
 * The UTF-8 size of some text columns over a table's rows, summed by SQLite in one pass
 * (`from`: a table and its condition, from our own code; never outside input), so a
 * TextColumns buffer is made once at its size (see TextColumns).
 *
 * @example
 * utf8Bytes(db, "brokers WHERE published = 1", ["name", "slug"]); // 2_715_004
 */
export function utf8Bytes(db: DirectoryDb, from: string, columns: readonly string[]): number {
  const sum = columns.map((column) => `coalesce(length(CAST(${column} AS BLOB)), 0)`).join(" + ");
  return db.$client.query<{ bytes: number | null }, []>(`SELECT sum(${sum}) AS bytes FROM ${from}`).get()?.bytes ?? 0;
}
