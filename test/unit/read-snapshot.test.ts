/**
 * ReadSnapshot (src/storage/sqlite/readSnapshot.ts): the statements of one read see one snapshot even
 * when another process commits between them, the transaction never outlives the read (value or
 * error), and inside a transaction already open the read joins it.
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { ReadSnapshot } from "../../src/storage/sqlite/readSnapshot.ts";
import { walDatabasePair, type WalDatabasePair } from "../support/walDatabasePair.ts";

let files: WalDatabasePair;
let client: Database;
/** Another connection: a writer in another process, as far as SQLite's locks can tell. */
let writer: Database;
let snapshot: ReadSnapshot;

beforeEach(() => {
  files = walDatabasePair("read-snapshot-", "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t (id) VALUES (1)", { other: "writer" });
  ({ client, other: writer } = files);
  snapshot = new ReadSnapshot(client);
});
afterEach(() => files.close());

const count = () => client.query<{ n: number }, []>("SELECT count(*) AS n FROM t").get()!.n;

test("two statements of one read see the same rows though another connection commits between them", () => {
  const [before, after] = snapshot.run(() => {
    const first = count();
    writer.exec("INSERT INTO t (id) VALUES (2)");
    return [first, count()];
  });
  expect([before, after]).toEqual([1, 1]);
  // The snapshot ends with the read: the next one sees the commit.
  expect(count()).toBe(2);
  expect(client.inTransaction).toBe(false);
});

test("without it, the second statement would have seen the commit (what the test above guards)", () => {
  const first = count();
  writer.exec("INSERT INTO t (id) VALUES (2)");
  expect([first, count()]).toEqual([1, 2]);
});

test("a read that throws leaves no transaction open, and its error is the one thrown", () => {
  expect(() =>
    snapshot.run(() => {
      count();
      throw new Error("mapping failed");
    }),
  ).toThrow("mapping failed");
  expect(client.inTransaction).toBe(false);
  // The writer is not held back by a forgotten read lock: it commits, and a checkpoint can finish.
  writer.exec("INSERT INTO t (id) VALUES (3)");
  const checkpoint = writer.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get()!;
  expect(checkpoint.busy).toBe(0);
});

test("inside a transaction already open, the read runs in it and leaves it open", () => {
  client.exec("BEGIN");
  client.exec("INSERT INTO t (id) VALUES (4)");
  expect(snapshot.run(count)).toBe(2);
  expect(client.inTransaction).toBe(true);
  client.exec("COMMIT");
  expect(count()).toBe(2);
});
