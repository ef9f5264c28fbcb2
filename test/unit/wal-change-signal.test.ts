import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/storage/database.ts";
import { MetaCounter } from "../../src/storage/metaCounter.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { WalChangeSignal } from "../../src/storage/walChangeSignal.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function databaseFile() {
  const dir = mkdtempSync(join(tmpdir(), "wal-signal-"));
  dirs.push(dir);
  const path = join(dir, "directory.db");
  const db = openDatabase(path);
  migrate(db);
  return { path, db };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("the wal-index header moves with every commit, from this connection or another process's, and only then", () => {
  const { path, db } = databaseFile();
  const signal = WalChangeSignal.open(path)!;
  expect(signal).toBeDefined();
  const seen = signal.snapshot();
  expect(signal.changedSince(seen)).toBe(false);
  db.$client.run("SELECT count(*) FROM meta");
  expect(signal.changedSince(seen)).toBe(false); // a read commits nothing
  const other = new Database(path);
  other.run("UPDATE meta SET value = value + 1 WHERE key = 'keys_version'");
  expect(signal.changedSince(seen)).toBe(true);
  expect(signal.changedSince(seen)).toBe(false); // brought up to date
  db.$client.run("UPDATE meta SET value = value + 1 WHERE key = 'directory_version'");
  expect(signal.changedSince(seen)).toBe(true);
  other.close();
});

test("a counter bumped by another connection is seen on the next turn, one left alone is not read again", async () => {
  const { path, db } = databaseFile();
  const counter = new MetaCounter(db, "keys_version");
  const first = counter.current();
  await nextTurn();
  expect(counter.current()).toBe(first);
  const other = new Database(path);
  other.run("UPDATE meta SET value = value + 5 WHERE key = 'keys_version'");
  expect(counter.current()).toBe(first); // the same turn keeps its value
  await nextTurn();
  expect(counter.current()).toBe(first + 5);
  // A commit that leaves the row alone costs a read, never a wrong value.
  other.run("UPDATE meta SET value = value + 1 WHERE key = 'directory_version'");
  await nextTurn();
  expect(counter.current()).toBe(first + 5);
  // With no commit since, the row is not read: a value slipped past SQLite's view is not noticed…
  await nextTurn();
  counter["value"] = 12345;
  expect(counter.current()).toBe(12345);
  // …until anything commits, when the row is read again.
  other.run("UPDATE meta SET value = value + 1 WHERE key = 'directory_version'");
  await nextTurn();
  expect(counter.current()).toBe(first + 5);
  other.close();
});

test("without a -shm to map (an in-memory database) the counter reads the row every turn", async () => {
  const db = openDatabase(":memory:");
  migrate(db);
  expect(WalChangeSignal.open(":memory:")).toBeUndefined();
  const counter = new MetaCounter(db, "keys_version");
  const first = counter.current();
  db.$client.run("UPDATE meta SET value = value + 1 WHERE key = 'keys_version'");
  await nextTurn();
  expect(counter.current()).toBe(first + 1);
});
