import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { BackgroundCheckpoints, useCheckpointWorkerScript } from "../../src/storage/sqlite/backgroundCheckpoints.ts";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { describeSqliteOnly } from "../support/testDatabase.ts";

/**
 * The SQLite file is checkpointed by a worker thread (src/storage/sqlite/backgroundCheckpoints.ts): the
 * serving connection's own threshold is only a safety net, the worker copies the log back into
 * the file as quotes are written, and a worker that cannot run hands checkpoints back.
 */
describeSqliteOnly("over SQLite", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ demo: false });
    key = await server.createKey({ workspace: "checkpoints", rateLimitPerMinute: 100_000 });
  });
  afterAll(() => server.close());

  const autocheckpoint = () => server.app.services.db.$client.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!.wal_autocheckpoint;
  const quote = () =>
    server.request("/api/v1/embed/quotes", {
      key,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ insuranceType: "Condo", province: "BC", postalCode: "V6B 1A1", details: { yearBuilt: 2001, contentsValue: 50_000, claimsLast5Years: 0 } }),
    });

  test("the worker takes over: the serving connection keeps only the safety net", async () => {
    const checkpoints = server.app.checkpoints!;
    expect(checkpoints).toBeDefined();
    expect(await eventually(() => checkpoints.running)).toBe(true);
    expect(autocheckpoint()).toBe(16_384);
  });

  test("quotes written through the API are copied back into the file by the worker", async () => {
    const checkpoints = server.app.checkpoints!;
    const before = checkpoints.framesCopied;
    for (let i = 0; i < 20; i++) expect((await quote()).status).toBe(201);
    expect(await eventually(() => checkpoints.framesCopied !== before)).toBe(true);
  });
});

describeSqliteOnly("a worker that cannot run", () => {
  const logLines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    useCheckpointWorkerScript(new URL("./no-such-worker.js", import.meta.url).href);
    server = await startTestServer({ demo: false, app: { logger: createLogger("info", (line) => logLines.push(line)) } });
  });
  afterAll(async () => {
    useCheckpointWorkerScript(new URL("../../src/storage/sqlite/checkpointWorker.ts", import.meta.url).href);
    await server.close();
  });

  test("hands checkpoints back to the serving connection (SQLite's 1,000 pages), says so, and the server serves", async () => {
    const checkpoints: BackgroundCheckpoints = server.app.checkpoints!;
    expect(await eventually(() => logLines.some((line) => line.includes('"msg":"checkpoint worker failed: checkpoints are back on the serving thread"')))).toBe(true);
    expect(checkpoints.running).toBe(false);
    expect(server.app.services.db.$client.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!.wal_autocheckpoint).toBe(1_000);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
