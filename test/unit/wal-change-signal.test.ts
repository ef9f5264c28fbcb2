import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { dlopen, FFIType, ptr } from "bun:ffi";
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { MetaCounter } from "../../src/storage/sqlite/metaCounter.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { WalChangeSignal } from "../../src/storage/sqlite/walChangeSignal.ts";

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

/**
 * Who holds a lock on one byte of a file, as fcntl(F_GETLK) reports it to this process: the
 * type (F_UNLCK = 2 when nobody does) and the holder's pid.
 */
function lockOn(file: string, byte: number): { type: number; pid: number } {
  const { symbols } = dlopen("libc.so.6", { fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
  const F_GETLK = 5;
  const F_WRLCK = 1;
  // struct flock on 64-bit Linux: short l_type, short l_whence, off_t l_start, off_t l_len, pid_t l_pid.
  const flock = new DataView(new ArrayBuffer(32));
  flock.setInt16(0, F_WRLCK, true);
  flock.setBigInt64(8, BigInt(byte), true);
  flock.setBigInt64(16, 1n, true);
  const fd = openSync(file, "r");
  try {
    expect(symbols.fcntl(fd, F_GETLK, ptr(flock.buffer))).toBe(0);
  } finally {
    closeSync(fd);
  }
  return { type: flock.getInt16(0, true), pid: flock.getInt32(24, true) };
}

/**
 * A server watching the signal must keep SQLite's locks on the `-shm`: SQLite holds a shared lock
 * on its byte 128 ("DMS") to tell other processes the file is in use. An earlier version mapped
 * the file with Bun.mmap, which opens and closes a descriptor, and closing any descriptor of a
 * file drops every lock the process holds on it: the next command beside the server believed it
 * was the first to open the database, truncated the `-shm` to 3 bytes, and the server's SQLite
 * died of SIGBUS on its mapping. The server here is a child, and this process looks at its locks.
 */
test("watching the signal keeps SQLite's lock on the -shm, and a command beside the server leaves it whole", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wal-signal-"));
  dirs.push(dir);
  const path = join(dir, "directory.db");
  const script = join(dir, "server.ts");
  const src = (file: string) => JSON.stringify(join(import.meta.dir, "../../src/storage/sqlite", file));
  await Bun.write(
    script,
    `import { openDatabase } from ${src("database.ts")};
     import { MetaCounter } from ${src("metaCounter.ts")};
     import { migrate } from ${src("migrate.ts")};
     const db = openDatabase(${JSON.stringify(path)});
     migrate(db);
     const counter = new MetaCounter(db, "keys_version");
     counter.current();
     await new Promise((resolve) => setImmediate(resolve));
     counter.current(); // the signal is open now
     console.log("watching");
     for await (const line of console) {
       for (let i = 0; i < 20; i++) db.$client.run("UPDATE meta SET value = value + 1 WHERE key = 'directory_version'");
       await new Promise((resolve) => setImmediate(resolve));
       console.log(JSON.stringify({ keysVersion: counter.current() }));
     }`,
  );
  const server = Bun.spawn([process.execPath, script], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  try {
    const lines = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
    expect((await lines.read()).value).toBe("watching\n");
    expect(lockOn(`${path}-shm`, 128)).toEqual({ type: 0 /* F_RDLCK */, pid: server.pid });
    // A command beside the server reads and writes; the -shm keeps its size and the server works on.
    const command = new Database(path);
    command.run("UPDATE meta SET value = value + 3 WHERE key = 'keys_version'");
    command.close();
    expect(statSync(`${path}-shm`).size).toBeGreaterThanOrEqual(32 * 1024);
    server.stdin.write("go\n");
    await server.stdin.flush();
    const answer = (await lines.read()).value ?? "";
    expect(JSON.parse(answer)).toEqual({ keysVersion: expect.any(Number) });
  } finally {
    server.kill();
    expect(await new Response(server.stderr).text()).toBe("");
  }
});

test("a database closed and opened again in this process: the counter watches the new -shm, not the deleted one", async () => {
  const { path, db } = databaseFile();
  const first = new MetaCounter(db, "keys_version");
  first.current();
  await nextTurn();
  first.current(); // the signal is open on the first -shm
  const deletedInode = statSync(`${path}-shm`).ino;
  db.$client.close(true); // the last connection: SQLite checkpoints and deletes the -wal and -shm
  const again = openDatabase(path);
  expect(statSync(`${path}-shm`).ino).not.toBe(deletedInode);
  const counter = new MetaCounter(again, "keys_version");
  const before = counter.current();
  await nextTurn();
  expect(counter.current()).toBe(before);
  const other = new Database(path);
  other.run("UPDATE meta SET value = value + 7 WHERE key = 'keys_version'");
  other.close();
  await nextTurn();
  expect(counter.current()).toBe(before + 7);
});

test("a process that opens and deletes many databases keeps watching new ones (descriptors of deleted files are closed)", () => {
  for (let i = 0; i < 70; i++) { // past the bound of 64 watched files
    const { path, db } = databaseFile();
    expect(WalChangeSignal.open(path)).toBeDefined();
    db.$client.close(true);
    rmSync(dirname(path), { recursive: true, force: true });
  }
  const { path } = databaseFile();
  expect(WalChangeSignal.open(path)).toBeDefined();
  // 70 migrated databases: 3-4 s on a loaded CI host.
}, 30_000);
