/**
 * `seed` on a database a server is reading: a concurrent reader (this test process, while
 * the seed runs in its own) sees the old directory or the new one, never an empty or
 * half-loaded one.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "./cliHarness.ts";
import { sqliteOnly } from "../support/testDatabase.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

// SQLite only: a bun:sqlite reader on the file during seed.
sqliteOnly("a reader during seed sees only the old total or the new one", async () => {
  const path = tmp.path("live.db");
  expect((await runCli(["seed", "--brokers", "1000", "--reviews-per-broker", "1", "--db", path])).code).toBe(0);
  const reader = new Database(path, { readonly: true });
  const count = () => reader.query<{ n: number }, []>("SELECT count(*) AS n FROM brokers").get()!.n;
  const before = count();
  expect(before).toBe(1000);

  const seed = Bun.spawn([process.execPath, join(REPO, "src/main.ts"), "seed", "--brokers", "5000", "--reviews-per-broker", "1", "--seed", "7", "--db", path], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let finished = false;
  void childExit(seed).then(() => (finished = true));
  const seen = new Set<number>();
  let reads = 0;
  while (!finished) {
    seen.add(count());
    reads++;
    await Bun.sleep(2);
  }
  expect(await childExit(seed)).toBe(0);
  seen.add(count());
  reader.close();
  expect(reads).toBeGreaterThan(10); // the reader really ran during the seed
  expect([...seen].sort((a, b) => a - b)).toEqual([1000, 5000]);
}, 60_000);
