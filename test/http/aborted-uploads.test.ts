/**
 * Uploads the client abandons mid-body, on every surface that reads a body, with and without a
 * key: the server's memory and its count of requests in flight end where they were, and a
 * SIGTERM afterwards finds nothing to wait for. (Bun 1.3 never settled a body read begun after
 * `request.body` was touched: each such request kept its ~64 KB and stayed "in flight" forever.)
 * The server is a child process, so that its memory is its own.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ServedProcess } from "../cli/cliHarness.ts";
import { eventually } from "../support/eventually.ts";
import { BODY_SURFACES, postHead, requestsInFlight, serveWithSurfaceKeys, type SurfaceServer } from "../support/bodySurfaces.ts";
import { abortedUpload } from "../support/rawHttp.ts";
import { childExit } from "../support/childExit.ts";
import { rssAnonMb } from "../support/processMemory.ts";

let running: SurfaceServer;
let server: ServedProcess;
beforeAll(async () => {
  running = await serveWithSurfaceKeys(["--shutdown-grace", "30"]);
  server = running.server;
}, 30_000);
afterAll(() => running?.stop());

/** One round: `perVariant` aborted uploads to each surface, keyed and not, 16 at a time. */
async function abortRound(perVariant: number): Promise<void> {
  const heads: string[] = [];
  for (const surface of BODY_SURFACES) {
    // The request: 65,000 bytes declared, 60,000 sent (see abortRound's caller), then closed.
    heads.push(postHead(server.url, surface, undefined, 65_000));
    if (surface.keyed) heads.push(postHead(server.url, surface, running.keyFor(surface), 65_000));
  }
  const jobs = heads.flatMap((h) => Array.from({ length: perVariant }, () => h));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await abortedUpload(server.url, jobs[next++]!, 60_000);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** Anonymous resident memory of the server in MB: what a leaked body buffer adds to. */
const serverRssAnonMb = () => rssAnonMb(server.proc.pid);

// Linux only (/proc). 6,300 aborted uploads in all (two rounds): a few seconds.
test("aborted uploads on every surface leave memory and the in-flight count where they were", async () => {
  // The first round warms the allocator's pools; what a second one adds is what is kept.
  await abortRound(100);
  expect(await eventually(async () => (await requestsInFlight(server.url)) === 0, 5_000)).toBe(true);
  const before = serverRssAnonMb();
  await abortRound(600);
  // Every aborted request ended.
  expect(await eventually(async () => (await requestsInFlight(server.url)) === 0, 5_000)).toBe(true);
  // One surface keeping its aborted bodies would add ~37 MB (600 × ~62 KB), for good; none adds
  // 0–12 once the garbage of the round is collected (the idle collection runs after a quiet
  // second; on a loaded CI host right after the round it was once 38 MB, then fell).
  let grown = serverRssAnonMb() - before;
  expect(await eventually(() => (grown = serverRssAnonMb() - before) < 28, 5_000), `RssAnon grew ${grown.toFixed(1)} MB`).toBe(true);

  // Each abort is a 499 (the client closed the request), never a 500.
  const text = await (await fetch(`${server.url}/metrics`)).text();
  expect(text).not.toMatch(/broker_directory_http_requests_total\{[^}]*status="500"/);
  expect(text).toMatch(/broker_directory_http_requests_total\{method="POST",route="\/trpc\/leads\.create",status="499"\}/);

  // Nothing left for a graceful stop to wait for: it ends at once, well inside the 30 s grace.
  server.proc.kill("SIGTERM");
  expect(await childExit(server.proc)).toBe(0);
  expect(server.output()).not.toContain("shutdown grace period over");
}, 90_000);
