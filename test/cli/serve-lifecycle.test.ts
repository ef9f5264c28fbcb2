import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { runCli, startServe, tempDir, type ServedProcess } from "./cliHarness.ts";
import { onPostgres, sqliteOnly } from "../support/testDatabase.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

/** Starts `serve` on a free port, no demo data. */
function serve(databasePath: string, extra: string[] = []): Promise<ServedProcess> {
  return startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo", ...extra], { env: { DATABASE_PATH: databasePath } });
}

function assertClosedCleanly(path: string): void {
  // Over PostgreSQL there is no file: the pool is closed, and the log says so (checked by the caller).
  if (onPostgres) return;
  // The TRUNCATE checkpoint at stop leaves every page in the main file and an empty log.
  expect(!existsSync(`${path}-wal`) || statSync(`${path}-wal`).size === 0).toBe(true);
  const db = new Database(path, { readonly: true });
  try {
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
  } finally {
    db.close();
  }
}

test.each(["SIGTERM", "SIGINT"] as const)("%s stops the server: exit 0, database closed cleanly", async (signal) => {
  const path = tmp.path(`${signal}.db`);
  const server = await serve(path);
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  server.proc.kill(signal);
  expect(await childExit(server.proc)).toBe(0);
  expect(server.output()).toContain(`"msg":"shutting down","signal":"${signal}"`);
  expect(server.output()).toContain('"msg":"database closed"');
  assertClosedCleanly(path);
});

test("on SIGTERM a request in flight is finished while new connections are refused", async () => {
  const path = tmp.path("inflight.db");
  const created = await runCli(["keys", "create", "--workspace", "ops", "--json"], { DATABASE_PATH: path });
  const { key } = JSON.parse(created.stdout) as { key: string };
  const server = await serve(path);

  // A POST whose body arrives in two parts: the server is inside the request when SIGTERM lands.
  const encoder = new TextEncoder();
  let sendRest!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"jsonrpc":"2.0","id":1,'));
      sendRest = () => {
        controller.enqueue(encoder.encode('"method":"ping"}'));
        controller.close();
      };
    },
  });
  let settled = false;
  const inFlight = fetch(`${server.url}/mcp`, {
    method: "POST",
    body,
    // @ts-expect-error -- `duplex` is required by fetch for streamed request bodies; Bun's types omit it
    duplex: "half",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
  }).finally(() => (settled = true));
  await Bun.sleep(300);
  server.proc.kill("SIGTERM");
  await Bun.sleep(300);

  expect(settled).toBe(false);
  expect(server.proc.exitCode).toBeNull();
  await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

  sendRest();
  const response = await inFlight;
  expect(response.status).toBeLessThan(500);
  await response.text();
  expect(await childExit(server.proc)).toBe(0);
  assertClosedCleanly(path);
});

// SQLite only: backup copies the SQLite file.
sqliteOnly("backup takes a consistent copy while the server keeps serving", async () => {
  const path = tmp.path("live.db");
  expect((await runCli(["seed", "--brokers", "60", "--db", path])).code).toBe(0);
  const { key } = JSON.parse((await runCli(["keys", "create", "--workspace", "ops", "--json"], { DATABASE_PATH: path })).stdout) as { key: string };
  const server = await serve(path);
  try {
    const target = tmp.path("live-backup.db");
    const backup = await runCli(["backup", target, "--db", path]);
    expect(backup.code).toBe(0);
    const res = await fetch(`${server.url}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const { pagination } = (await res.json()) as { pagination: { total: number } };
    const copy = new Database(target, { readonly: true });
    const published = copy.query<{ n: number }, []>("SELECT count(*) AS n FROM brokers WHERE published = 1").get()!.n;
    const keys = copy.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys").get()!.n;
    copy.close();
    expect(published).toBe(pagination.total);
    expect(keys).toBe(1);
  } finally {
    server.proc.kill("SIGTERM");
    expect(await childExit(server.proc)).toBe(0);
  }
});

test("with --drain, SIGTERM turns /readyz to 503 at once while requests are still served, then the server stops", async () => {
  const path = tmp.path("drain.db");
  const created = await runCli(["keys", "create", "--workspace", "ops", "--json"], { DATABASE_PATH: path });
  const { key } = JSON.parse(created.stdout) as { key: string };
  const server = await serve(path, ["--drain", "2"]);
  const ready = await fetch(`${server.url}/readyz`);
  expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { checks: { lifecycle: "serving" } } });

  server.proc.kill("SIGTERM");
  await Bun.sleep(200);
  const draining = await fetch(`${server.url}/readyz`);
  expect({ status: draining.status, body: await draining.json() }).toEqual({
    status: 503,
    body: { status: "not ready", mode: "unavailable", checks: { database: "ok", migrations: "ok", writes: "ok", lifecycle: "stopping" } },
  });
  // Still serving: what the balancer sent before it noticed is answered.
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect((await fetch(`${server.url}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);

  expect(await childExit(server.proc)).toBe(0);
  expect(server.output()).toContain('"msg":"draining: /readyz answers 503 while requests are still served","drainMs":2000');
  assertClosedCleanly(path);
}, 20_000);

test("--drain outside 0 to 60 is a usage error naming the setting", async () => {
  const result = await runCli(["serve", "--drain", "61", "--no-demo"], { DATABASE_PATH: tmp.path("drain-bad.db") });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("DRAIN_SECONDS / --drain must be 0 to 60");
});
