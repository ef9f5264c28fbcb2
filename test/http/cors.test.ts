import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EMBED_SCOPES } from "../../src/auth/scopes.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const PARTNER = "https://partner.example";
const EXPOSED = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, Idempotent-Replayed";

let server: TestServer;
let embedKey: string;

beforeAll(async () => {
  server = await startTestServer();
  embedKey = await server.createKey({ workspace: "partner", origins: [PARTNER], scopes: [...EMBED_SCOPES], rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

interface Failure { error: string }

function fromPartner(path: string, init: RequestInit & { key?: string } = {}, origin = PARTNER) {
  return server.request(path, { key: embedKey, ...init, headers: { Origin: origin, ...(init.headers as Record<string, string>) } });
}

function expectCors(res: Response, origin = PARTNER) {
  expect(res.headers.get("access-control-allow-origin")).toBe(origin);
  expect(res.headers.get("access-control-expose-headers")).toBe(EXPOSED);
  expect(res.headers.get("vary")).toContain("Origin");
  expect(res.headers.get("access-control-allow-credentials")).toBeNull();
}

describe("preflight (OPTIONS) on embed paths", () => {
  test.each([
    ["/api/v1/embed/quotes", "POST"],
    ["/api/v1/embed/leads", "POST"],
    ["/api/v1/embed/brokers", "GET"],
    ["/api/v1/embed/reviews", "GET"],
    ["/api/v1/embed/quotes/qt_123", "GET"],
  ])("%s: 204 without a key, with the allowed methods, headers and max-age", async (path, method) => {
    const res = await server.request(path, {
      method: "OPTIONS",
      headers: { Origin: "https://any-site.example", "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "authorization, content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://any-site.example");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Idempotency-Key");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("vary")).toContain("Origin");
    expect(await res.text()).toBe("");
  });

  test("an Origin that is not a web origin is not echoed", async () => {
    const res = await server.request("/api/v1/embed/brokers", { method: "OPTIONS", headers: { Origin: "null" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("OPTIONS on a server-to-server path is 405 with no CORS", async () => {
    for (const path of ["/api/v1/brokers", "/api/v1/leads", "/api/v1/policies/compare"]) {
      const res = await server.request(path, { method: "OPTIONS", headers: { Origin: PARTNER, "Access-Control-Request-Method": "GET" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("allow")).toBeTruthy();
      expect(((await res.json()) as Failure).error).toContain("server-to-server endpoint and answers no CORS");
    }
  });
});

describe("actual embed responses echo the Origin, successes and errors alike", () => {
  test("200 from an allowed origin, with the rate-limit headers exposed", async () => {
    const res = await fromPartner("/api/v1/embed/brokers?limit=1");
    expect(res.status).toBe(200);
    expectCors(res);
    expect(res.headers.get("ratelimit-limit")).toBe("10000");
  });

  test("201 on POST", async () => {
    const res = await fromPartner("/api/v1/embed/quotes", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ insuranceType: "Tenant", province: "ON", postalCode: "K1A 0B1", details: { contentsValue: 20_000, claimsLast5Years: 0 } }),
    });
    expect(res.status).toBe(201);
    expectCors(res);
  });

  test("401 without a key is readable by the page", async () => {
    const res = await fromPartner("/api/v1/embed/brokers", { key: undefined });
    expect(res.status).toBe(401);
    expectCors(res);
  });

  test("403 from an origin that is not the key's, naming the origin", async () => {
    const res = await fromPartner("/api/v1/embed/brokers", {}, "https://evil.example");
    expect(res.status).toBe(403);
    expectCors(res, "https://evil.example");
    expect(((await res.json()) as Failure).error).toBe('Origin "https://evil.example" is not allowed for this key. Add it to the key\'s origins.');
  });

  test("403 for an embed key without an Origin (not from a browser page)", async () => {
    const res = await server.request("/api/v1/embed/brokers", { key: embedKey });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Failure).error).toContain("the request had no Origin header");
  });

  test("422 and 404 carry CORS too", async () => {
    const invalid = await fromPartner("/api/v1/embed/brokers?limit=99");
    expect(invalid.status).toBe(422);
    expectCors(invalid);
    const missing = await fromPartner("/api/v1/embed/nothing-here");
    expect(missing.status).toBe(404);
    expectCors(missing);
  });

  test("413 and 415 carry CORS too", async () => {
    const big = await fromPartner("/api/v1/embed/leads", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ notes: "x".repeat(65 * 1024) }) });
    expect(big.status).toBe(413);
    expectCors(big);
    const text = await fromPartner("/api/v1/embed/leads", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(text.status).toBe(415);
    expectCors(text);
  });

  test("429 exposes Retry-After to the page", async () => {
    const tight = await server.createKey({ workspace: "partner", origins: [PARTNER], rateLimitPerMinute: 1 });
    expect((await fromPartner("/api/v1/embed/brokers?limit=1", { key: tight })).status).toBe(200);
    const res = await fromPartner("/api/v1/embed/brokers?limit=1", { key: tight });
    expect(res.status).toBe(429);
    expectCors(res);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("embed keys stay in the embed API", () => {
  test("an embed key on a non-embed path is 403, even from its own origin", async () => {
    for (const path of ["/api/v1/brokers", "/api/v1/carriers", "/api/v1/leads"]) {
      const res = await fromPartner(path);
      expect(res.status).toBe(403);
      expect(((await res.json()) as Failure).error).toContain("only works on /api/v1/embed/*");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
    const compare = await fromPartner("/api/v1/policies/compare", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(compare.status).toBe(403);
  });

  test("an embed key only holds embed scopes, whatever it was created with", async () => {
    const res = await server.request("/api/v1/embed/brokers?limit=1", { key: embedKey, headers: { Origin: PARTNER } });
    expect(res.status).toBe(200);
    const readOnly = await server.createKey({ origins: [PARTNER], scopes: ["leads:read"] });
    const denied = await fromPartner("/api/v1/embed/brokers", { key: readOnly });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as Failure).error).toContain("lacks the brokers:read scope");
  });

  test("non-embed paths never answer CORS, even to a server key (which a page may not send: server_key_in_browser)", async () => {
    const serverKey = await server.createKey();
    const res = await server.request("/api/v1/brokers?limit=1", { key: serverKey, headers: { Origin: PARTNER } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("server_key_in_browser");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});
