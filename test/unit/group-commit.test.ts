/**
 * Group commit (src/storage/sqlite/groupCommit.ts): writes handed over in one event-loop turn share
 * one transaction, each is acknowledged only once committed, a write that fails is rolled back
 * alone and fails only its own caller, and a fault that ends the transaction fails them all.
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { GroupCommit } from "../../src/storage/sqlite/groupCommit.ts";
import { walDatabasePair, type WalDatabasePair } from "../support/walDatabasePair.ts";

let files: WalDatabasePair;
let client: Database;
let other: Database;
let writes: GroupCommit;

beforeEach(() => {
  files = walDatabasePair("group-commit-", "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)", { other: "readonly" });
  ({ client, other } = files);
  writes = new GroupCommit(client);
});
afterEach(() => files.close());

const insert = (id: number, label: string) => () => client.run("INSERT INTO t (id, label) VALUES (?, ?)", [id, label]);
const labelsSeenElsewhere = () => other.query<{ label: string }, []>("SELECT label FROM t ORDER BY id").all().map((r) => r.label);

test("writes of one turn commit together, and are acknowledged only after the commit", async () => {
  const first = writes.write(insert(1, "a"));
  let sharedTransaction = false;
  const second = writes.write(() => {
    insert(2, "b")();
    // The first write is visible here but not to another connection: one open transaction holds both.
    const here = client.query<{ n: number }, []>("SELECT count(*) AS n FROM t").get()!.n;
    sharedTransaction = client.inTransaction && here === 2 && labelsSeenElsewhere().length === 0;
  });
  let settled = false;
  void Promise.all([first, second]).then(() => (settled = true));
  await Promise.resolve();
  // Nothing is written, nor acknowledged, before the batch runs.
  expect(settled).toBe(false);
  expect(labelsSeenElsewhere()).toEqual([]);
  await Promise.all([first, second]);
  expect(sharedTransaction).toBe(true);
  // Another connection sees both the moment the promises settle: they are committed.
  expect(labelsSeenElsewhere()).toEqual(["a", "b"]);
});

test("a write that fails is rolled back alone (none of its statements stay) and fails only its own caller", async () => {
  await writes.write(insert(1, "taken"));
  const good1 = writes.write(insert(2, "a"));
  const bad = writes.write(() => {
    client.run("INSERT INTO t (id, label) VALUES (3, 'half')"); // would stay without the savepoint
    client.run("INSERT INTO t (id, label) VALUES (4, 'taken')"); // UNIQUE fails
  });
  const good2 = writes.write(insert(5, "b"));
  await expect(bad).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
  await good1;
  await good2;
  expect(labelsSeenElsewhere()).toEqual(["taken", "a", "b"]);
});

test("a batch that succeeds runs each write once; one that fails is replayed, and each write's rows are stored once", async () => {
  const runs = new Map<string, number>();
  const counted = (id: number, label: string) => () => {
    runs.set(label, (runs.get(label) ?? 0) + 1);
    insert(id, label)();
  };
  await Promise.all([writes.write(counted(1, "a")), writes.write(counted(2, "b"))]);
  expect(Object.fromEntries(runs)).toEqual({ a: 1, b: 1 });

  runs.clear();
  const before = writes.write(counted(3, "c"));
  const bad = writes.write(insert(4, "a")); // UNIQUE fails: the batch is rolled back and replayed
  const after = writes.write(counted(5, "d"));
  await expect(bad).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
  await Promise.all([before, after]);
  // "c" ran before the failure, was rolled back with the batch and ran again; "d" never ran in the first try.
  expect(Object.fromEntries(runs)).toEqual({ c: 2, d: 1 });
  expect(labelsSeenElsewhere()).toEqual(["a", "b", "c", "d"]);
});

test("a write alone in its batch that fails gets its own error, and leaves nothing", async () => {
  const bad = writes.write(() => {
    client.run("INSERT INTO t (id, label) VALUES (1, 'half')");
    client.run("INSERT INTO t (id, label) VALUES (1, 'again')"); // PRIMARY KEY fails
  });
  await expect(bad).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
  expect(client.inTransaction).toBe(false);
  expect(labelsSeenElsewhere()).toEqual([]);
});

test("a fault that ends the transaction (read-only) fails every write of the batch with it, and nothing is stored", async () => {
  client.exec("PRAGMA query_only = ON");
  const results = await Promise.allSettled([writes.write(insert(1, "a")), writes.write(insert(2, "b"))]);
  for (const result of results) {
    expect(result.status).toBe("rejected");
    // Read, not toMatchObject: every write may get the same error object, and Bun's
    // toMatchObject writes the asymmetric matcher into the object it checked.
    expect((result as PromiseRejectedResult).reason.code).toMatch(/^SQLITE_READONLY/);
  }
  client.exec("PRAGMA query_only = OFF");
  expect(client.inTransaction).toBe(false);
  // The next batch works again.
  await writes.write(insert(3, "c"));
  expect(labelsSeenElsewhere()).toEqual(["c"]);
});

test("batches that follow each other each commit (no write waits for a turn that never comes)", async () => {
  for (let i = 1; i <= 5; i++) await writes.write(insert(i, `x${i}`));
  await Promise.all([6, 7, 8].map((i) => writes.write(insert(i, `x${i}`))));
  expect(labelsSeenElsewhere()).toHaveLength(8);
});
