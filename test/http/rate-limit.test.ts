import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

test("request 101 inside the minute is a 429 with Retry-After; every response carries the headers", async () => {
  const key = await server.createKey();
  for (let i = 1; i <= 100; i++) {
    const res = await server.request("/api/v1/brokers?limit=1", { key });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("100");
    expect(res.headers.get("ratelimit-remaining")).toBe(String(100 - i));
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    await res.arrayBuffer();
  }
  const limited = await server.request("/api/v1/brokers?limit=1", { key });
  expect(limited.status).toBe(429);
  const retryAfter = Number(limited.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(limited.headers.get("ratelimit-remaining")).toBe("0");
  const body = (await limited.json()) as { error: string };
  expect(body.error).toContain("Rate limit of 100 requests per minute");
});

test("the limit is per key", async () => {
  const a = await server.createKey({ rateLimitPerMinute: 1 });
  const b = await server.createKey({ rateLimitPerMinute: 1 });
  expect((await server.request("/api/v1/brokers?limit=1", { key: a })).status).toBe(200);
  expect((await server.request("/api/v1/brokers?limit=1", { key: a })).status).toBe(429);
  expect((await server.request("/api/v1/brokers?limit=1", { key: b })).status).toBe(200);
});

test("exact under concurrency: with 50 in flight and a limit of 10, exactly 10 get through", async () => {
  const key = await server.createKey({ rateLimitPerMinute: 10 });
  const statuses = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const res = await server.request("/api/v1/brokers?limit=1", { key });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(40);
});

test("requests refused for a bad key do not spend anyone's budget", async () => {
  const res = await server.request("/api/v1/brokers", { key: "brk_" + "x".repeat(43) });
  expect(res.status).toBe(401);
  expect(res.headers.get("ratelimit-limit")).toBeNull();
});
