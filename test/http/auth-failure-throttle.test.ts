/**
 * Floods of failed authentication are slowed per client address: past 20 failures a minute
 * they get 429 with Retry-After on every surface, while a valid key from the same address
 * (behind a proxy, everyone's address) keeps working. Memory stays bounded.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { addressBucket, AUTH_FAILURES_PER_MINUTE, AuthFailureThrottle } from "../../src/auth/authFailureThrottle.ts";
import { MCP_HEADERS } from "../mcp/mcpSupport.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const bad = { Authorization: "Bearer brk_not-a-real-key-not-a-real-key-not-a-real-key0" };

test("past the budget, failed authentication answers 429 with Retry-After on every surface; a valid key still passes", async () => {
  for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++) {
    const res = await server.request("/api/v1/brokers", { headers: bad });
    expect(res.status).toBe(401);
  }
  const rest = await server.request("/api/v1/brokers", { headers: bad });
  expect(rest.status).toBe(429);
  expect(Number(rest.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(((await rest.json()) as { error: string }).error).toContain("Too many failed authentication attempts");

  const mcp = await server.request("/mcp", { method: "POST", headers: { ...MCP_HEADERS, ...bad }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
  expect(mcp.status).toBe(429);
  expect(mcp.headers.get("retry-after")).not.toBeNull();
  expect(((await mcp.json()) as { error: { code: number } }).error.code).toBe(-31429);

  const trpc = await server.request("/trpc/brokers.search", { headers: {} });
  expect(trpc.status).toBe(429);
  expect(trpc.headers.get("retry-after")).not.toBeNull();

  const key = await server.createKey();
  expect((await server.request("/api/v1/brokers?limit=1", { key })).status).toBe(200);
});

test("the throttle forgets the oldest address past its bound, and counts IPv6 per /64", () => {
  const throttle = new AuthFailureThrottle(100);
  for (let i = 0; i < 1_000; i++) throttle.recordFailure(`10.0.${i >> 8}.${i & 255}`, 0);
  expect(throttle.trackedAddresses).toBe(100);
  expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
  expect(addressBucket("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
  expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
  expect(addressBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
  expect(addressBucket("203.0.113.9")).toBe("203.0.113.9");
});
