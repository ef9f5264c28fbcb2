import { getTableColumns, getTableName } from "drizzle-orm";
import type { Database } from "bun:sqlite";
import type postgres from "postgres";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as pgSchema from "../../../db/schema.pg.ts";
import * as sqliteSchema from "../../../db/schema.ts";
import { sqliteTableInserter } from "../sqlite/tableInserter.ts";
import { insertIntoPgTable } from "./pgRowInsert.ts";

/**
 * The published directory's tables as pairs: the SQLite table and its PostgreSQL twin. The two
 * schema files give each the same table and column names and the same row type (proved by
 * test/unit/schema-dialects.test.ts), so a row read from one is written to the other unchanged.
 * In the order a copy writes them (parents first) and a delete clears them (reversed).
 */
export const DIRECTORY_TABLES = {
  brokers: { sqlite: sqliteSchema.brokers, pg: pgSchema.brokers },
  brokerLocations: { sqlite: sqliteSchema.brokerLocations, pg: pgSchema.brokerLocations },
  brokerLines: { sqlite: sqliteSchema.brokerLines, pg: pgSchema.brokerLines },
  reviews: { sqlite: sqliteSchema.reviews, pg: pgSchema.reviews },
  carriers: { sqlite: sqliteSchema.carriers, pg: pgSchema.carriers },
} as const;
export type DirectoryTable = keyof typeof DIRECTORY_TABLES;
/** A row of a directory table: one type for both dialects. */
export type DirectoryRow<T extends DirectoryTable> = (typeof DIRECTORY_TABLES)[T]["sqlite"]["$inferSelect"];

/** Taken by every writer of the whole directory or the carriers, so two seeds (two instances' demo data, two carrier syncs) queue. */
export const SEED_LOCK = 0x62726b736565; // "brksee"

/**
 * Inserts rows into a directory table of PostgreSQL (insertIntoPgTable: postgres.js's multi-row
 * statements, 2.5 times faster to build than drizzle's).
 */
export async function insertIntoPg<T extends DirectoryTable>(sql: postgres.Sql | postgres.TransactionSql, table: T, rows: readonly DirectoryRow<T>[]): Promise<void> {
  await insertIntoPgTable(sql, DIRECTORY_TABLES[table].pg, rows);
}

/**
 * A prepared INSERT of whole rows into a directory table of SQLite (sqliteTableInserter). The
 * caller holds the transaction.
 */
export function sqliteInserter<T extends DirectoryTable>(client: Database, table: T): (rows: readonly DirectoryRow<T>[]) => void {
  return sqliteTableInserter(client, DIRECTORY_TABLES[table].sqlite);
}

/**
 * Every row of a SQLite table, streamed in pages of `size` (a file's whole directory never sits
 * in memory), each value mapped back by its column (0/1 to booleans, text to JSON lists).
 */
export function* sqliteRowPages<T extends DirectoryTable>(client: Database, table: T, size: number): Generator<DirectoryRow<T>[]> {
  const source: SQLiteTable = DIRECTORY_TABLES[table].sqlite;
  const columns = Object.entries(getTableColumns(source));
  const query = client.query<Record<string, unknown>, []>(`SELECT * FROM "${getTableName(source)}"`);
  let page: DirectoryRow<T>[] = [];
  for (const stored of query.iterate()) {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = stored[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    page.push(row as DirectoryRow<T>);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}
