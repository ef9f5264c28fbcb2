/**
 * The durability promise, checked the hard way: the server (a real child process) is killed
 * with SIGKILL in the middle of a storm of lead writes; after a restart every lead it had
 * acknowledged (201) is there, and the file passes integrity_check and foreign_key_check.
 * Run for both synchronous settings: NORMAL (the default) promises this for a process crash.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { runCli, startServe, tempDir } from "./cliHarness.ts";
import { sqliteOnly } from "../support/testDatabase.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

const WRITERS = 8;

function serve(path: string, synchronous: string) {
  const flags = ["--port", "0", "--host", "127.0.0.1", "--no-demo", "--log-level", "warn", "--synchronous", synchronous];
  return startServe(flags, { env: { DATABASE_PATH: path } });
}

// SQLite only: the SQLite file's crash safety and PRAGMA synchronous (over PostgreSQL: test/cluster/haproxy-cluster's kill -9).
sqliteOnly.each(["NORMAL", "FULL"])("kill -9 during a lead-write storm (synchronous=%s): every acknowledged lead survives, the file is intact", async (synchronous) => {
  const path = tmp.path(`crash-${synchronous}.db`);
  expect((await runCli(["seed", "--brokers", "50", "--db", path])).code).toBe(0);
  const created = await runCli(["keys", "create", "--workspace", "crash", "--rate-limit", "1000000", "--json"], { DATABASE_PATH: path });
  expect(created.code, created.stderr).toBe(0);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const server = await serve(path, synchronous);

  const acknowledged: string[] = [];
  let stop = false;
  const writer = async (w: number) => {
    for (let i = 0; !stop; i++) {
      try {
        const res = await fetch(`${server.url}/api/v1/leads`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ name: "Crash Test", email: `w${w}-${i}@example.ca`, phone: "(416) 555-0199", insuranceType: "Home" }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
        else await res.text();
      } catch {
        return; // the server is gone
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  while (acknowledged.length < 300) await Bun.sleep(10);
  server.proc.kill("SIGKILL");
  stop = true;
  await Promise.all(writers);
  await childExit(server.proc);

  // Restart on the same file (recovery replays the WAL), then look at what it kept.
  const restarted = await serve(path, synchronous);
  try {
    expect((await fetch(`${restarted.url}/readyz`)).status).toBe(200);
  } finally {
    restarted.proc.kill("SIGTERM");
    expect(await childExit(restarted.proc)).toBe(0);
  }
  const db = new Database(path, { readonly: true });
  try {
    const stored = new Set(db.query<{ id: string }, []>("SELECT id FROM leads").all().map((r) => r.id));
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
    expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
  } finally {
    db.close();
  }
}, 60_000);

// SQLite only: the SQLite file's crash safety and PRAGMA synchronous (over PostgreSQL: test/cluster/haproxy-cluster's kill -9).
sqliteOnly("--synchronous sets the connection's PRAGMA synchronous (NORMAL = 1, FULL = 2)", async () => {
  const { openDatabase, closeDatabase } = await import("../../src/storage/sqlite/database.ts");
  for (const [mode, value] of [["NORMAL", 1], ["FULL", 2]] as const) {
    const db = openDatabase(tmp.path(`sync-${mode}.db`), { synchronous: mode });
    expect(db.$client.query<{ synchronous: number }, []>("PRAGMA synchronous").get()?.synchronous).toBe(value);
    closeDatabase(db);
  }
});
