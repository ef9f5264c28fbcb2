import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

const DISTINCT_URLS = 20_000;

/** The i-th hostile request: every one a URL (or Host) never sent before. */
function hostile(i: number): { path: string; host?: string } {
  const unique = `${i}z${(i * 7919).toString(36)}`;
  switch (i % 10) {
    case 0:
      return { path: `/api/v1/brokers?province=ON&x=${unique}${"p".repeat(2_000)}` }; // ignored parameter
    case 1:
      return { path: "/api/v1/embed/brokers?province=QC&limit=5", host: `h${unique}.example:8080` }; // rotated Host
    case 2:
      return { path: `/api/v1/brokers/${unique}-no-such-broker` };
    case 3:
      return { path: `/api/v1/embed/brokers?city=${unique}&insuranceType=${unique}` }; // empty result sets
    case 4:
      return { path: `/trpc/brokers.search?input=${encodeURIComponent(JSON.stringify({ json: { q: `trpc${unique}` } }))}` };
    case 5:
      return { path: "/docs", host: `d${unique}.example` };
    default:
      return { path: `/api/v1/brokers?q=${unique}&limit=${1 + (i % 100)}` }; // unique q
  }
}

/**
 * 20,000 distinct URLs and queries, each sent twice (ignored parameters, unique q, empty result sets, rotated
 * Host) through REST, embed, tRPC and /docs: every cache stays within its caps. Counts the
 * caches, not RSS (which the allocator keeps and the machine shares); the manual's security page shows RSS.
 */
test("every cache stays within its caps under 20,000 distinct URLs", async () => {
  const statuses = new Map<number, number>();
  let next = 0;
  let peakViolation: string | undefined;
  async function worker() {
    while (next < DISTINCT_URLS) {
      const i = next++;
      const { path, host } = hostile(i);
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      if (host) headers.Host = host;
      // Twice: the answer caches keep a value from its second request on (see Doorkeeper), so
      // a flood of one-off URLs alone would leave them empty rather than test their caps.
      for (let time = 0; time < 2; time++) {
        const res = await fetch(server.url + path, { headers });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
      if (i % 1_000 === 0) {
        for (const s of server.app.services.caches.stats()) {
          if (s.entries > s.maxEntries || s.bytes > s.maxBytes) peakViolation ??= `${s.name} at ${JSON.stringify(s)} after ${i} requests`;
        }
      }
    }
  }
  await Promise.all(Array.from({ length: 24 }, worker));

  expect(peakViolation).toBeUndefined();
  expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  const stats = Object.fromEntries(server.app.services.caches.stats().map((s) => [s.name, s]));
  expect(Object.keys(stats).sort()).toEqual(["api-keys", "carriers", "directory-reads", "mcp-tool-keys", "mcp-tool-results", "rate-limit-windows", "rest-cache-keys", "rest-rendered-hot", "rest-responses", "search-index"]);
  for (const s of Object.values(stats)) {
    expect(s.entries).toBeLessThanOrEqual(s.maxEntries);
    expect(s.bytes).toBeLessThanOrEqual(s.maxBytes);
  }
  // The flood went past the caps of the caches it could fill, so eviction, not luck, held them.
  expect(stats["directory-reads"]!.entries).toBe(stats["directory-reads"]!.maxEntries);
  // Each of the ~8,000 unique searches left a search-index set, the empty ones included.
  expect(stats["search-index"]!.entries).toBeGreaterThan(8_000);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}, 120_000);
