/**
 * The database holds leads' names, emails and phones: the file, its write-ahead log and
 * shared-memory index, and every backup are readable by their owner only (0600), whatever
 * the umask, including files left world-readable by an older version.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import { backupDatabase } from "../../src/ops/backup.ts";
import { restoreDatabase } from "../../src/ops/restore.ts";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { runCli, tempDir } from "./cliHarness.ts";
import { sqliteOnly } from "../support/testDatabase.ts";

const tmp = tempDir();
const previousUmask = process.umask(0o022); // the usual default, under which files are 0644
afterAll(() => {
  process.umask(previousUmask);
  tmp.remove();
});

const mode = (path: string) => statSync(path).mode & 0o777;

function writeSomething(path: string) {
  const db = openDatabase(path);
  migrate(db);
  db.$client.run("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)", [crypto.randomUUID(), crypto.randomUUID(), Date.now()]);
  return db;
}

// SQLite only: permissions of the SQLite file and its -wal/-shm.
sqliteOnly("a new database, its -wal and -shm are 0600", () => {
  const path = tmp.path("new.db");
  const db = writeSomething(path);
  try {
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect(existsSync(file)).toBe(true);
      expect(mode(file).toString(8), file).toBe("600");
    }
  } finally {
    closeDatabase(db);
  }
});

// SQLite only: permissions of the SQLite file and its -wal/-shm.
sqliteOnly("a -wal SQLite makes later (any connection, e.g. a CLI beside the server) takes the main file's 0600", () => {
  const path = tmp.path("later.db");
  closeDatabase(writeSomething(path));
  expect(existsSync(`${path}-wal`)).toBe(false);
  const raw = new Database(path);
  try {
    raw.run("INSERT INTO workspaces (id, name, created_at) VALUES ('w', 'later', 1)");
    expect(mode(`${path}-wal`).toString(8)).toBe("600");
    expect(mode(`${path}-shm`).toString(8)).toBe("600");
  } finally {
    raw.close();
  }
});

// SQLite only: permissions of the SQLite file and its -wal/-shm.
sqliteOnly("files an older version left world-readable are made 0600 when opened", () => {
  const path = tmp.path("old.db");
  closeDatabase(writeSomething(path));
  chmodSync(path, 0o644);
  writeFileSync(`${path}-shm`, "");
  chmodSync(`${path}-shm`, 0o644);
  const db = openDatabase(path);
  try {
    expect(mode(path).toString(8)).toBe("600");
    expect(mode(`${path}-shm`).toString(8)).toBe("600");
    expect(mode(`${path}-wal`).toString(8)).toBe("600");
  } finally {
    closeDatabase(db);
  }
});

// SQLite only: permissions of the SQLite file and its -wal/-shm.
sqliteOnly("backup and restore write 0600 files", () => {
  const path = tmp.path("live.db");
  closeDatabase(writeSomething(path));
  const backup = tmp.path("backup.db");
  backupDatabase(path, backup);
  expect(mode(backup).toString(8)).toBe("600");
  const restored = tmp.path("restored.db");
  restoreDatabase(backup, restored, { force: false });
  expect(mode(restored).toString(8)).toBe("600");
});

// SQLite only: permissions of the SQLite file and its -wal/-shm.
sqliteOnly("the CLI creates the database 0600 (keys create on a new path)", async () => {
  const path = tmp.path("cli.db");
  const created = await runCli(["keys", "create", "--workspace", "perm", "--json"], { DATABASE_PATH: path });
  expect(created.code).toBe(0);
  expect(mode(path).toString(8)).toBe("600");
});
