import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "../../db/schema.ts";

export type DirectoryDb = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * Opens (creating if needed) the SQLite file with the settings the service relies on:
 * WAL so readers never wait for the writer, foreign keys enforced, a busy timeout so a
 * second process (a CLI command beside the server) waits instead of failing.
 */
export function openDatabase(path: string): DirectoryDb {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const client = new Database(path, { create: true, strict: true });
  client.exec("PRAGMA journal_mode = WAL");
  client.exec("PRAGMA synchronous = NORMAL");
  client.exec("PRAGMA foreign_keys = ON");
  client.exec("PRAGMA busy_timeout = 5000");
  client.exec("PRAGMA temp_store = MEMORY");
  client.exec("PRAGMA cache_size = -65536");
  return drizzle({ client, schema }) as DirectoryDb;
}
