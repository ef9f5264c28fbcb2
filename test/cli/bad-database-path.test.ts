import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { runCli } from "./cliHarness.ts";

// Not tempDir(): over PostgreSQL that would hand the commands a DATABASE_URL, and these paths must reach SQLite.
const dir = mkdtempSync(join(tmpdir(), "broker-directory-bad-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const folder = join(dir, "a-folder");
mkdirSync(folder);
const notSqlite = join(dir, "notes.db");
const NOT_SQLITE_TEXT = "These are notes, not a database. ".repeat(10);
writeFileSync(notSqlite, NOT_SQLITE_TEXT);
/**
 * A device to point --db at. As root (CI) it is a null device of our own in the temp dir, not
 * /dev/null: a command that regressed to writing or renaming over its --db (seed and restore
 * rename a finished file over it) would replace the machine's /dev/null, as happened once here.
 */
const device = userInfo().uid === 0 ? ownNullDevice() : "/dev/null";
function ownNullDevice(): string {
  const path = join(dir, "null");
  const made = Bun.spawnSync(["mknod", "-m", "666", path, "c", "1", "3"]);
  if (made.exitCode !== 0) throw new Error(`mknod failed: ${made.stderr.toString()}`);
  return path;
}

/** Each wrong --db an operator can type, with what the one line must say. Tests run as root, so "cannot be created" is a path under a file. */
const BAD_PATHS: [label: string, path: string, says: RegExp][] = [
  ["a device", device, /null is a device/],
  ["a directory", folder, /is a directory/],
  ["a file that is not SQLite", notSqlite, /file is not a database/],
  ["a path under a file (cannot be created)", join(notSqlite, "x.db"), /Cannot open the database .*: a file stands where its folder should be/],
];

/** One line on stderr, no stack frame, no source excerpt, exit 1. */
function expectOneLine(result: { code: number; stdout: string; stderr: string }, says: RegExp) {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("Error: ");
  expect(lines[0]).toMatch(says);
  expect(result.stderr).not.toMatch(/^\s+at |\d+ \|/m);
}

describe("migrate --db with a path that cannot be a database", () => {
  // The audit's own command: migrate only opens its --db, so the real /dev/null is safe here.
  test("/dev/null: one line saying what is wrong, exit 1", async () => {
    expectOneLine(await runCli(["migrate", "--db", "/dev/null"]), /\/dev\/null is a device/);
  });
  for (const [label, path, says] of BAD_PATHS) {
    test(`${label}: one line saying what is wrong, exit 1`, async () => {
      expectOneLine(await runCli(["migrate", "--db", path]), says);
    });
  }
});

describe("every command that opens the database says the same", () => {
  const commands: [string, string[]][] = [
    ["seed", ["seed", "--brokers", "3"]],
    ["keys list", ["keys", "list"]],
    ["keys create", ["keys", "create", "--workspace", "w"]],
    ["console-link", ["console-link", "--workspace", "w"]],
    ["serve", ["serve", "--port", "0"]],
    ["backup", ["backup", join(dir, "copy.db")]], // never written: each case is refused
  ];
  for (const [name, args] of commands) {
    for (const [label, path, says] of [BAD_PATHS[0]!, BAD_PATHS[2]!]) {
      test(`${name} --db ${label}`, async () => {
        expectOneLine(await runCli([...args, "--db", path]), name === "backup" && label !== "a device" ? /backup failed: file is not a database/ : says);
      });
    }
  }

  test("restore --force over a device refuses before touching it", async () => {
    const backup = join(dir, "good.db");
    expect((await runCli(["migrate", "--db", backup])).code).toBe(0);
    expectOneLine(await runCli(["restore", backup, "--force", "--db", device]), /null is a device/);
    expect(statSync(device).isCharacterDevice()).toBe(true);
  });

  test("the file that is not SQLite is left as it was", () => {
    expect(readFileSync(notSqlite, "utf8")).toBe(NOT_SQLITE_TEXT);
  });
});
