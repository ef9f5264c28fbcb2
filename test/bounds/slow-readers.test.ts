/**
 * Slow readers cannot pin whole answers: a broker://directory read (~22 MB at 20,000 brokers)
 * goes out at the client's pace, so clients that read nothing leave the server's memory
 * (RssAnon of the child process) about where it was; a batch of twenty reads is one
 * directory, not twenty; and a key has at most DOWNLOADS_PER_KEY downloads in progress.
 */
import { afterAll, beforeAll, expect } from "bun:test";
import { runCli, startServe, tempDir, type ServedProcess } from "../cli/cliHarness.ts";
import { peakRssAnonMb, rssAnonMb } from "../support/processMemory.ts";
import { stalledRequest, type StalledReader } from "../support/rawHttp.ts";
import { onPostgres, sqliteOnly } from "../support/testDatabase.ts";

const tmp = tempDir();
const path = tmp.path("big.db");
const BROKERS = 20_000;
let key: string;
const servers: ServedProcess[] = [];
const readers: StalledReader[] = [];

beforeAll(async () => {
  if (onPostgres) return;
  expect((await runCli(["seed", "--brokers", String(BROKERS), "--reviews-per-broker", "0", "--db", path])).code).toBe(0);
  key = (JSON.parse((await runCli(["keys", "create", "--workspace", "ops", "--rate-limit", "100000", "--json"], { DATABASE_PATH: path })).stdout) as { key: string }).key;
}, 60_000);
afterAll(() => {
  for (const reader of readers) reader.close();
  for (const server of servers) server.proc.kill();
  tmp.remove();
});

async function serve(...flags: string[]): Promise<ServedProcess> {
  const server = await startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo", ...flags], { env: { DATABASE_PATH: path } });
  servers.push(server);
  return server;
}

const read = (id: number) => ({ jsonrpc: "2.0", id, method: "resources/read", params: { uri: "broker://directory" } });

/** A POST /mcp whose answer is never read. */
async function stalledMcp(server: ServedProcess, message: unknown): Promise<StalledReader> {
  const body = JSON.stringify(message);
  const head = [
    "POST /mcp HTTP/1.1",
    `Host: ${new URL(server.url).host}`,
    `Authorization: Bearer ${key}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    "MCP-Protocol-Version: 2025-03-26",
    `Content-Length: ${Buffer.byteLength(body)}`,
  ].join("\r\n");
  const reader = await stalledRequest(server.url, head, body);
  readers.push(reader);
  return reader;
}

/** Warms the server (one whole read, read at once) so the baseline holds what every read needs. */
async function warm(server: ServedProcess): Promise<void> {
  const response = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(read(1)),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

// SQLite only: pacing is the adapter's, the same over PostgreSQL, while 20,000 brokers seeded
// there and loaded into the instance's replica would cost the run a minute. The watch windows
// (seconds) give the server time to write all it would: before pacing it had written the
// whole directory into its own buffers well within them.
sqliteOnly("20 clients that each read one directory and then nothing leave the server's memory bounded", async () => {
  const server = await serve("--downloads-per-key", "20");
  await warm(server);
  const before = rssAnonMb(server.proc.pid);
  for (let i = 0; i < 20; i++) await stalledMcp(server, read(i));
  const peak = await peakRssAnonMb(server.proc.pid, 6_000);
  // Before: 20 × 22 MB held (65 → 707 MB). Now each stream holds about a megabyte in Bun.
  expect(peak - before).toBeLessThan(150);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}, 60_000);

sqliteOnly("a batch of 20 directory reads that is never read costs one directory at most", async () => {
  const server = await serve();
  await warm(server);
  const before = rssAnonMb(server.proc.pid);
  await stalledMcp(server, Array.from({ length: 20 }, (_, i) => read(i + 1)));
  const peak = await peakRssAnonMb(server.proc.pid, 6_000);
  // Before: 281–338 MB for ~130 s. Now one paced directory, the other 19 refused.
  expect(peak - before).toBeLessThan(60);
}, 60_000);

sqliteOnly("a key has at most DOWNLOADS_PER_KEY downloads in progress; one more is refused with 429, and a closed one frees its slot", async () => {
  const server = await serve("--downloads-per-key", "2");
  const first = await stalledMcp(server, read(1));
  const second = await stalledMcp(server, read(2));
  const post = () =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify(read(3)),
    });
  // The stalled reads are in progress once the server has begun answering them.
  for (let i = 0; i < 100 && (first.received() === 0 || second.received() === 0); i++) await Bun.sleep(20);
  const refused = await post();
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(await refused.json()).toMatchObject({ id: 3, error: { code: -31429, message: expect.stringContaining("2 large downloads in progress") } });

  first.close();
  let again = await post();
  for (let i = 0; i < 50 && again.status === 429; i++) {
    await again.arrayBuffer();
    await Bun.sleep(100);
    again = await post();
  }
  expect(again.status).toBe(200);
  expect(JSON.parse(((await again.json()) as { result: { contents: { text: string }[] } }).result.contents[0]!.text).total).toBeGreaterThan(BROKERS * 0.9);
}, 60_000);
