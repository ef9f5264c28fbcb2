import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";

/**
 * Bytes the database occupies on disk: the main file plus its write-ahead log (which holds
 * recent commits until the next checkpoint). Zero for an in-memory database.
 */
export function databaseBytes(client: Database): number {
  const path = client.filename;
  if (!path || path === ":memory:") return 0;
  return fileSize(path) + fileSize(`${path}-wal`);
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
