import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface WalDatabasePair {
  /** The connection under test. */
  client: Database;
  /** A second connection to the same file: another process, as far as SQLite's locks can tell. */
  other: Database;
  /** Closes both and deletes the file with its directory. */
  close(): void;
}

/**
 * A WAL-mode SQLite file in a fresh temporary directory, made with `schema`, and two connections
 * to it: for tests of what one connection's transactions let another see.
 *
 * @example
 * const { client, other, close } = walDatabasePair("group-commit-", "CREATE TABLE t (id INTEGER PRIMARY KEY)", { other: "readonly" });
 */
export function walDatabasePair(prefix: string, schema: string, options: { other: "readonly" | "writer" }): WalDatabasePair {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, "test.db");
  const client = new Database(path, { create: true, strict: true });
  client.exec("PRAGMA journal_mode = WAL");
  client.exec(schema);
  const other = options.other === "readonly" ? new Database(path, { readonly: true }) : new Database(path, { strict: true });
  return {
    client,
    other,
    close() {
      other.close();
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
