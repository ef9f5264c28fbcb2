/**
 * A database the server may not write (a read-only file): start still serves reads where it
 * can, with /readyz saying writes are read-only; where start truly needs a write (pending
 * migrations) it stops with one clear line and exit 1, never an uncaught SQLITE_READONLY.
 *
 * Root writes any file whatever its mode, so as root the server runs as `nobody` (setpriv);
 * as anyone else a chmod 0444 is enough.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, chownSync, closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli, startServe, tempDir } from "./cliHarness.ts";
import { onPostgres } from "../support/testDatabase.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
/** Runs bun as a user who cannot write the database. */
const READER_PREFIX = isRoot ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"] : [];


/** Makes `path` (and its folder, for the -shm SQLite needs) readable but not writable by that user. */
function makeReadOnly(path: string): void {
  if (isRoot) {
    chmodSync(tmp.dir, 0o755);
    chownSync(tmp.dir, NOBODY, NOBODY);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      try {
        chownSync(file, NOBODY, NOBODY);
      } catch {}
    }
  }
  chmodSync(path, 0o444);
}

const canRunAsReader =
  !isRoot || Bun.spawnSync([...READER_PREFIX, process.execPath, join(REPO, "src/main.ts"), "--help"], { cwd: "/", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" } }).exitCode === 0;

function serveReadOnly(path: string) {
  return startServe(["--port", "0", "--host", "127.0.0.1", "--db", path], { prefix: READER_PREFIX, cwd: "/", env: { HOME: "/tmp" } });
}

// SQLite only (onPostgres): a read-only SQLite file.
test.skipIf(!canRunAsReader || onPostgres)("a seeded, never-served, read-only database: serve starts, reads work, /readyz says writes are read-only", async () => {
  const path = tmp.path("never-served.db");
  expect((await runCli(["seed", "--brokers", "20", "--db", path])).code).toBe(0);
  makeReadOnly(path);
  const server = await serveReadOnly(path);
  try {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "not ready", mode: "unavailable", checks: { database: "ok", migrations: "ok", writes: "read-only", lifecycle: "serving" } });
    // The demo key could not be made (the database has none): requests are refused cleanly.
    expect((await fetch(`${server.url}/api/v1/brokers`)).status).toBe(401);
  } finally {
    server.proc.kill("SIGTERM");
    expect(await childExit(server.proc)).toBe(0);
  }
});

// SQLite only (onPostgres): a read-only SQLite file.
test.skipIf(!canRunAsReader || onPostgres)("a read-only database that needs migrations: one line, exit 1", async () => {
  const path = tmp.path("unmigrated.db");
  closeSync(openSync(path, "w", 0o600));
  makeReadOnly(path);
  const proc = Bun.spawn([...READER_PREFIX, process.execPath, join(REPO, "src/main.ts"), "serve", "--port", "0", "--db", path], {
    cwd: "/",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([childExit(proc), new Response(proc.stderr).text()]);
  expect(code).toBe(1);
  expect(stderr.trim()).toBe(`Error: The database ${path} needs migrations but is read-only; start once with write access and free space, then it can serve read-only.`);
});
