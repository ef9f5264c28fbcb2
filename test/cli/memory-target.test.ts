import { afterAll, expect, test } from "bun:test";
import { startServe, tempDir, type ServedProcess } from "./cliHarness.ts";
import { eventually } from "../support/eventually.ts";

const served: ServedProcess[] = [];
afterAll(() => {
  for (const server of served) server.proc.kill();
});

async function serve(target: string): Promise<ServedProcess> {
  const dir = tempDir();
  const server = await startServe(["--db", dir.path("directory.db"), "--port", "0", "--no-demo", "--log-level", "debug", "--memory-target", target]);
  served.push(server);
  return server;
}

test("a server over MEMORY_TARGET_MB runs a full collection, logs its pause, and goes on answering", async () => {
  // 1 MB: any running server is over it.
  const server = await serve("1");
  expect(await eventually(() => server.output().includes('"msg":"memory over its target: collected"'), 5_000)).toBe(true);
  const line = server.output().split("\n").find((l) => l.includes("memory over its target"))!;
  expect(JSON.parse(line)).toMatchObject({ level: "debug", targetMb: 1, ms: expect.any(Number) });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});

test("MEMORY_TARGET_MB=0 leaves collections to the engine", async () => {
  const server = await serve("0");
  // Four checks' worth of time (they run every 250 ms when a target is set).
  await Bun.sleep(1_000);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect(server.output()).not.toContain("memory over its target");
});
