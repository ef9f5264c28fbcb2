import { afterAll, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryOf } from "../../scripts/bench/processMemory.ts";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { sqliteOnly } from "../support/testDatabase.ts";

const dir = mkdtempSync(join(tmpdir(), "page-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MB = 1024 * 1024;

/**
 * Reads come from the mapped file, so the page cache only ever holds written pages; it used to
 * keep 64 MiB of them per connection (75 MB of a server's anonymous memory after the bench's
 * quotes). Writes 40 MB through one connection, in 40 transactions as a busy server would, and
 * reads this process's anonymous memory before and after: the rows are made by SQLite itself
 * (randomblob), so JavaScript allocates nothing that would blur the count.
 */
// SQLite only: the page cache is a setting of the SQLite connection.
sqliteOnly("40 MB written through a connection leave no more than a few MB in its page cache", () => {
  const db = openDatabase(join(dir, "test.db"));
  const client = db.$client;
  client.exec("CREATE TABLE written (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
  const insertMegabyte = client.prepare(
    "INSERT INTO written (body) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT randomblob(1000) FROM n",
  );
  insertMegabyte.run(); // SQLite's own first allocations (statement, schema) are not the cache
  Bun.gc(true);
  const before = memoryOf(process.pid).rssAnon;
  for (let i = 0; i < 40; i++) insertMegabyte.run();
  Bun.gc(true);
  const grown = memoryOf(process.pid).rssAnon - before;

  expect((client.query("SELECT count(*) AS n FROM written").get() as { n: number }).n).toBe(41_000);
  expect(grown).toBeLessThan(12 * MB);
  client.close();
});
