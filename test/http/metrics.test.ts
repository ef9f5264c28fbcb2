import { afterAll, beforeAll, expect, test } from "bun:test";
import { isLocalClient, isLoopbackAddress } from "../../src/adapters/http/loopback.ts";
import { decideMetricsAccess } from "../../src/adapters/metrics/metricsAccess.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const TOKEN = "metrics-token-for-tests-0123456789";
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ app: { metricsToken: TOKEN } });
  key = await server.createKey({ rateLimitPerMinute: 1 });
});
afterAll(() => server.close());

async function scrape(init: RequestInit = {}): Promise<string> {
  const res = await server.request("/metrics", init);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return res.text();
}

test("requests are counted by method, route pattern and status, never by raw path", async () => {
  await server.request("/api/v1/brokers/some-secret-looking-slug-42", { key });
  const text = await scrape();
  expect(text).toContain('broker_directory_http_requests_total{method="GET",route="/api/v1/brokers/:slug",status="404"} 1');
  expect(text).not.toContain("some-secret-looking-slug-42");
});

test("latency is a histogram per route with cumulative buckets, sum and count", async () => {
  await server.request("/healthz");
  await server.request("/healthz");
  const text = await scrape();
  const buckets = [...text.matchAll(/broker_directory_http_request_duration_seconds_bucket\{route="\/healthz",le="([^"]+)"\} (\d+)/g)];
  expect(buckets.length).toBeGreaterThan(5);
  const counts = buckets.map((m) => Number(m[2]));
  expect(counts).toEqual([...counts].sort((a, b) => a - b)); // cumulative
  expect(buckets.at(-1)![1]).toBe("+Inf");
  const count = Number(/broker_directory_http_request_duration_seconds_count\{route="\/healthz"\} (\d+)/.exec(text)![1]);
  expect(count).toBeGreaterThanOrEqual(2);
  expect(counts.at(-1)).toBe(count);
  expect(text).toMatch(/broker_directory_http_request_duration_seconds_sum\{route="\/healthz"\} [0-9.e-]+/);
});

test("rate-limit rejections are counted", async () => {
  await server.request("/api/v1/brokers", { key }); // the key's one request this minute was spent above
  const refused = await server.request("/api/v1/brokers", { key });
  expect(refused.status).toBe(429);
  const text = await scrape();
  expect(text).toMatch(/broker_directory_rate_limit_rejections_total\{route="\/api\/v1\/brokers"\} [1-9]/);
});

test("the database size and process gauges are present", async () => {
  const text = await scrape();
  const bytes = Number(/^broker_directory_database_bytes (\d+)$/m.exec(text)?.[1]);
  expect(bytes).toBeGreaterThan(100_000);
  expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
  expect(text).toMatch(/^# TYPE broker_directory_http_requests_total counter$/m);
});

test("a request forwarded by a proxy is not local: it needs the token", async () => {
  const forwarded = await server.request("/metrics", { headers: { "X-Forwarded-For": "203.0.113.9" } });
  expect(forwarded.status).toBe(403);
  expect(await forwarded.json()).toEqual({
    error: "Metrics are readable from this machine or with 'Authorization: Bearer $METRICS_TOKEN'.",
    code: "local_only",
    requestId: forwarded.headers.get("x-request-id")!,
    docs: "/docs/manual/errors#local_only",
  });
  const wrong = await server.request("/metrics", { headers: { "X-Forwarded-For": "203.0.113.9", Authorization: "Bearer not-the-token" } });
  expect(wrong.status).toBe(401);
  expect((await wrong.json()) as unknown).toEqual({
    error: "Invalid metrics token. Send 'Authorization: Bearer $METRICS_TOKEN' as configured on the server.",
    code: "invalid_metrics_token",
    requestId: wrong.headers.get("x-request-id")!,
    docs: "/docs/manual/errors#invalid_metrics_token",
  });
  await scrape({ headers: { "X-Forwarded-For": "203.0.113.9", Authorization: `Bearer ${TOKEN}` } });
});

test("an API key is not a metrics token", async () => {
  const res = await server.request("/metrics", { key });
  expect(res.status).toBe(401);
});

test("access rules: a local client without a token; any client with the right token", () => {
  const base = { authorization: null, token: undefined };
  expect(decideMetricsAccess({ ...base, local: true }).allowed).toBe(true);
  expect(decideMetricsAccess({ ...base, local: false })).toEqual({
    allowed: false,
    code: "local_only",
    message: "Metrics are readable only from this machine (loopback). Set METRICS_TOKEN on the server to read them remotely.",
  });
  expect(decideMetricsAccess({ ...base, local: false, token: TOKEN, authorization: `Bearer ${TOKEN}` }).allowed).toBe(true);
  // Without a configured token no bearer value opens it, not even an empty one.
  expect(decideMetricsAccess({ ...base, local: false, authorization: "Bearer " }).allowed).toBe(false);
});

test("a local client: loopback peer, localhost Host, not forwarded, and no PUBLIC_URL (a proxy may be in front)", () => {
  const req = (headers: Record<string, string>) => new Request("http://x/metrics", { headers });
  const direct = { peerAddress: "127.0.0.1", behindProxy: false };
  for (const peerAddress of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
    expect(isLocalClient(req({ Host: "localhost:3000" }), { ...direct, peerAddress })).toBe(true);
  }
  expect(isLocalClient(req({ Host: "127.0.0.1:3000" }), { ...direct, peerAddress: "10.0.0.7" })).toBe(false);
  expect(isLocalClient(req({ Host: "attacker.example:3000" }), direct)).toBe(false); // DNS rebinding
  expect(isLocalClient(req({ Host: "localhost", "X-Forwarded-For": "203.0.113.9" }), direct)).toBe(false);
  expect(isLocalClient(req({ Host: "localhost", Forwarded: "for=203.0.113.9" }), direct)).toBe(false);
  // nginx's defaults: Host 127.0.0.1:PORT and no forwarding header; only PUBLIC_URL tells.
  expect(isLocalClient(req({ Host: "127.0.0.1:3000" }), { ...direct, behindProxy: true })).toBe(false);
  expect(isLoopbackAddress("128.0.0.1")).toBe(false);
  expect(isLoopbackAddress("127.evil.example")).toBe(false);
  expect(isLoopbackAddress(undefined)).toBe(false);
});
