/**
 * /demo hands out a working embed key, so it is served to this machine only unless the
 * operator opens it; the key lives in its own workspace (no lead-listing neighbour) with a
 * low limit, is renewed before it expires, and belongs to one instance. /metrics and /demo
 * answer only localhost names when bound to loopback (DNS rebinding).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp } from "../../src/app.ts";
import { DEMO_PAGE_RATE_LIMIT, DEMO_PAGE_WORKSPACE } from "../../src/demo/demoPageKey.ts";
import { createLogger } from "../../src/log.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const KEY_PATTERN = /brk_[A-Za-z0-9_-]{43}/;
const lead = { name: "Marie Tremblay", email: "marie@example.ca", phone: "(416) 555-0199", insuranceType: "Auto" };

async function demoKey(server: TestServer): Promise<string> {
  const res = await server.request("/demo");
  expect(res.status).toBe(200);
  return KEY_PATTERN.exec(await res.text())![0];
}

describe("a server bound to loopback, no PUBLIC_URL", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("/demo and /metrics refuse a Host that is not a localhost name (DNS rebinding)", async () => {
    for (const path of ["/demo", "/metrics"]) {
      const res = await server.request(path, { headers: { Host: "attacker.example:80" } });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: string }).error).toContain("DNS rebinding");
    }
  });

  test("/demo is not served to a forwarded (non-local) client", async () => {
    const res = await server.request("/demo", { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain("--demo-public");
    expect(JSON.stringify(body)).not.toMatch(KEY_PATTERN);
  });

  test("the demo key is in its own workspace, with a low limit and no key that can list leads", async () => {
    const key = await demoKey(server);
    const stored = (await server.app.services.keys.list()).filter((k) => k.workspaceName === DEMO_PAGE_WORKSPACE);
    expect(stored.length).toBe(1);
    expect(stored[0]!.rateLimitPerMinute).toBe(DEMO_PAGE_RATE_LIMIT);
    expect(stored[0]!.scopes).not.toContain("leads:read");
    expect(key.startsWith(stored[0]!.displayPrefix)).toBe(true);

    // A lead written with the page's key is not listed by the demo key (API scopes).
    const origin = server.url;
    const written = await server.request("/api/v1/embed/leads", {
      key,
      method: "POST",
      headers: { Origin: origin, "Content-Type": "application/json" },
      body: JSON.stringify(lead),
    });
    expect(written.status).toBe(201);
    const id = ((await written.json()) as { data: { id: string } }).data.id;
    const listed = await server.request("/api/v1/leads?limit=100", { key: server.app.demo!.key! });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).not.toContain(id);
  });

  test("Sec-Fetch-Site: same-origin stands for an Origin only from a local client", async () => {
    const key = await demoKey(server);
    const sameOrigin = { "Sec-Fetch-Site": "same-origin" };
    const local = await server.request("/api/v1/embed/brokers?limit=1", { key, headers: sameOrigin });
    expect(local.status).toBe(200); // the demo page's own GETs, which browsers send without Origin
    const forged = await server.request("/api/v1/embed/brokers?limit=1", { key, headers: { ...sameOrigin, "X-Forwarded-For": "203.0.113.9" } });
    expect(forged.status).toBe(403);
  });

  test("the key is renewed before it expires; the one handed out earlier keeps working", async () => {
    const first = await demoKey(server);
    const realNow = server.app.services.now;
    try {
      server.app.services.now = () => Date.now() + 23 * 3600 * 1000;
      const renewed = await demoKey(server);
      expect(renewed).not.toBe(first);
      for (const key of [first, renewed]) {
        const res = await server.request("/api/v1/embed/brokers?limit=1", { key, headers: { Origin: server.url } });
        expect(res.status).toBe(200);
      }
      const newest = (await server.app.services.keys.list()).filter((k) => k.workspaceName === DEMO_PAGE_WORKSPACE).at(-1)!;
      expect(newest.expiresAt! - server.app.services.now()).toBeGreaterThan(23 * 3600 * 1000);
    } finally {
      server.app.services.now = realNow;
    }
  });
});

test("with PUBLIC_URL (a proxy in front), /metrics needs the token even from 127.0.0.1 without X-Forwarded-For", async () => {
  const server = await startTestServer({ app: { publicUrl: "https://brokers.example", metricsToken: "metrics-token-for-tests-0123456789" } });
  try {
    // What nginx sends by default: Host 127.0.0.1:PORT, no forwarding header.
    const res = await server.request("/metrics");
    expect(res.status).toBe(403);
    const withToken = await server.request("/metrics", { headers: { Authorization: "Bearer metrics-token-for-tests-0123456789" } });
    expect(withToken.status).toBe(200);
    expect((await server.request("/demo")).status).toBe(403);
    // The page's own origin is PUBLIC_URL, so same-origin GETs work for a key made for it.
    const key = await server.createKey({ origins: ["https://brokers.example"] });
    const sameOrigin = await server.request("/api/v1/embed/brokers?limit=1", { key, headers: { "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": "203.0.113.9" } });
    expect(sameOrigin.status).toBe(200);
  } finally {
    await server.close();
  }
});

test("--demo-public serves /demo to forwarded clients too", async () => {
  const server = await startTestServer({ app: { demoPublic: true } });
  try {
    const res = await server.request("/demo", { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(KEY_PATTERN);
  } finally {
    await server.close();
  }
});

test("a second instance on the same database file leaves the first one's demo key working", async () => {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-demo-"));
  const options = { databasePath: join(dir, "shared.db"), port: 0, hostname: "127.0.0.1", demo: true, logger: createLogger("silent") };
  const first = await startApp(options);
  const second = await startApp(options);
  try {
    const firstKey = KEY_PATTERN.exec(await (await fetch(`${first.url}/demo`)).text())![0];
    const secondKey = KEY_PATTERN.exec(await (await fetch(`${second.url}/demo`)).text())![0];
    expect(secondKey).not.toBe(firstKey);
    const res = await fetch(`${first.url}/api/v1/embed/brokers?limit=1`, { headers: { Authorization: `Bearer ${firstKey}`, Origin: first.url } });
    expect(res.status).toBe(200);
  } finally {
    await second.stop(1_000);
    await first.stop(1_000);
    rmSync(dir, { recursive: true, force: true });
  }
});
