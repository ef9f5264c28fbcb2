import { afterAll, beforeAll, expect, test } from "bun:test";
import { isLocalClient, isLoopbackAddress } from "../../src/adapters/http/loopback.ts";
import { decideMetricsAccess } from "../../src/adapters/metrics/metricsAccess.ts";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

const TOKEN = "metrics-token-for-tests-0123456789";
let server: TestServer;
let key: string;
const receiver = new WebhookReceiver();
beforeAll(async () => {
  // Loopback webhooks for the outbox's series; a retry waits an hour, so a failed delivery stays pending.
  server = await startTestServer({ app: { metricsToken: TOKEN, webhooks: { allowHttpLoopback: true, retryBaseSeconds: 3600 } } });
  key = await server.createKey({ rateLimitPerMinute: 1 });
});
afterAll(async () => {
  receiver.stop();
  await server.close();
});

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

/** The value of one series in a scrape, or undefined when it is absent. */
function series(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

test("the webhook outbox: pending deliveries, the oldest's age, attempts by outcome, disabled endpoints by reason", async () => {
  const before = await scrape();
  for (const outcome of ["delivered", "retry", "failed", "gone"]) {
    expect(series(before, `broker_directory_webhook_attempts_total{outcome="${outcome}"}`)).toBe(0);
  }
  expect(series(before, "broker_directory_webhook_deliveries_pending")).toBe(0);
  expect(series(before, "broker_directory_webhook_oldest_pending_age_seconds")).toBe(0);
  expect(before).toMatch(/^# TYPE broker_directory_webhook_attempts_total counter$/m);
  expect(before).toMatch(/^# TYPE broker_directory_webhook_deliveries_pending gauge$/m);

  const manager = await server.createKey({ workspace: "metrics-hooks", scopes: ["webhooks:manage"], rateLimitPerMinute: 1_000 });
  const call = (method: string, path: string, body?: unknown) =>
    server.request(path, { method, key: manager, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  receiver.answer("/failing", () => new Response("down", { status: 500 }));
  receiver.answer("/gone", () => new Response("gone", { status: 410 }));
  const ids: Record<string, string> = {};
  for (const path of ["/ok", "/failing", "/gone"]) {
    const made = await call("POST", "/api/v1/webhooks", { url: receiver.url(path), events: ["lead.created"] });
    expect(made.status).toBe(201);
    ids[path] = ((await made.json()) as { data: { id: string } }).data.id;
    expect((await call("POST", `/api/v1/webhooks/${ids[path]}/test`)).status).toBeLessThan(300);
  }

  // Each test event is attempted once: one delivered, one to retry (in an hour), one gone.
  let text = "";
  const attempted = (outcome: string) => series(text, `broker_directory_webhook_attempts_total{outcome="${outcome}"}`);
  expect(
    await eventually(async () => {
      text = await scrape();
      return attempted("delivered") === 1 && attempted("retry") === 1 && attempted("gone") === 1;
    }, 10_000),
  ).toBe(true);
  expect(attempted("failed")).toBe(0);
  // Scraped again: the scrape that saw the last count may have read the outbox before that attempt's record.
  text = await scrape();
  // The failing endpoint's delivery waits for its retry: the backlog, and its age.
  expect(series(text, "broker_directory_webhook_deliveries_pending")).toBe(1);
  expect(series(text, "broker_directory_webhook_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(0);
  expect(series(text, 'broker_directory_webhook_endpoints_disabled{reason="gone"}')).toBe(1);
  expect(series(text, 'broker_directory_webhook_endpoints_disabled{reason="workspace"}')).toBe(0);

  // Disabling the failing endpoint: its waiting delivery is no longer a backlog, and the reason is the workspace's.
  expect((await call("PATCH", `/api/v1/webhooks/${ids["/failing"]}`, { enabled: false })).status).toBe(200);
  text = await scrape();
  expect(series(text, "broker_directory_webhook_deliveries_pending")).toBe(0);
  expect(series(text, "broker_directory_webhook_oldest_pending_age_seconds")).toBe(0);
  expect(series(text, 'broker_directory_webhook_endpoints_disabled{reason="workspace"}')).toBe(1);
  expect(series(text, 'broker_directory_webhook_endpoints_disabled{reason="failing"}')).toBe(0);
});
