import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { postMcp } from "./mcpSupport.ts";

/**
 * Who may reach /mcp: the same keys, scopes and rate limits as REST, plus the browser
 * defences of the Streamable HTTP transport (Origin allow-list, Host check on localhost).
 */
const PARTNER = "https://agents.partner.example";
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ demo: false, app: { mcpAllowedOrigins: [PARTNER] } });
  key = await server.createKey();
});
afterAll(() => server.close());

const ping = { jsonrpc: "2.0", id: 1, method: "ping" };

describe("API keys", () => {
  test("no key is 401 with a plain Bearer challenge and no OAuth metadata", async () => {
    const answer = await postMcp(server, ping);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="mcp", error="invalid_token"');
    expect(answer.json).toEqual({
      error: "invalid_token",
      error_description: "Missing API key. Send it in the header 'Authorization: Bearer brk_…'.",
      code: "missing_api_key",
      requestId: answer.headers.get("x-request-id"),
      docs: "/docs/manual/errors#missing_api_key",
    });
  });

  test("a wrong, revoked or expired key is 401, on every method including GET", async () => {
    expect((await postMcp(server, ping, { key: "wrong" })).status).toBe(401);
    const revoked = await server.createKey({ name: "to-revoke" });
    await server.app.services.keys.revokeNamed("test", "to-revoke", Date.now());
    expect((await postMcp(server, ping, { key: revoked })).json.error_description).toContain("revoked");
    const expired = await server.createKey({ expiresAt: Date.now() - 1000 });
    expect((await postMcp(server, ping, { key: expired })).json.error_description).toContain("expired");
    expect((await postMcp(server, undefined, { method: "GET" })).status).toBe(401);
  });

  test("a key in the query string is not accepted", async () => {
    expect((await postMcp(server, ping, { path: `/mcp?api_key=${key}` })).status).toBe(401);
  });

  test("a browser embed key is 403 on /mcp", async () => {
    const embedKey = await server.createKey({ origins: ["https://shop.example"] });
    const answer = await postMcp(server, ping, { key: embedKey, headers: { Origin: PARTNER } });
    expect(answer.status).toBe(403);
    expect(answer.json.error.message).toContain("browser embed key");
  });

  test("past the key's rate limit: 429 with Retry-After and the RateLimit headers", async () => {
    const limited = await server.createKey({ rateLimitPerMinute: 2 });
    expect((await postMcp(server, ping, { key: limited })).headers.get("ratelimit-remaining")).toBe("1");
    await postMcp(server, ping, { key: limited });
    const answer = await postMcp(server, ping, { key: limited });
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answer.headers.get("ratelimit-limit")).toBe("2");
    expect(answer.headers.get("ratelimit-remaining")).toBe("0");
    expect(answer.json.error.message).toContain("Rate limit of 2 requests per minute exceeded");
  });

  test.each(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"])(
    "%s is 404: no OAuth is advertised",
    async (path) => {
      const response = await server.request(path);
      expect(response.status).toBe(404);
      expect((await response.json()).error).toContain("does not use OAuth");
    },
  );
});

describe("Origin", () => {
  test("a foreign Origin is 403, even with a valid key", async () => {
    const answer = await postMcp(server, ping, { key, headers: { Origin: "http://evil.example" } });
    expect(answer.status).toBe(403);
    expect(answer.json.error.message).toContain('Origin "http://evil.example" may not use /mcp');
  });

  test("no Origin (an agent) is served; an allow-listed Origin is served with CORS headers", async () => {
    expect((await postMcp(server, ping, { key })).status).toBe(200);
    const answer = await postMcp(server, ping, { key, headers: { Origin: PARTNER } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe(PARTNER);
    expect(answer.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
  });

  test("a preflight from an allow-listed Origin is answered without a key", async () => {
    const response = await server.request("/mcp", {
      method: "OPTIONS",
      headers: { Origin: PARTNER, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, mcp-protocol-version" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(PARTNER);
    expect(response.headers.get("access-control-allow-headers")).toContain("MCP-Protocol-Version");
  });
});

describe("DNS rebinding (the test server listens on 127.0.0.1)", () => {
  test("a foreign Host header is 403", async () => {
    const port = new URL(server.url).port;
    const answer = await postMcp(server, ping, { key, headers: { Host: `evil.example:${port}` } });
    expect(answer.status).toBe(403);
    expect(answer.json.error.message).toContain("DNS rebinding");
  });

  test.each(["localhost", "127.0.0.1", "[::1]"])("Host %s (any port) is served", async (host) => {
    expect((await postMcp(server, ping, { key, headers: { Host: `${host}:9999` } })).status).toBe(200);
  });
});

/**
 * The official conformance scenario `dns-rebinding-protection` and the MCP Inspector's browser
 * UI send `Host: localhost:PORT` with `Origin: http://localhost:PORT`: a page on this machine
 * talking to a local server. Loopback origins are accepted only while the Host is loopback too.
 */
describe("loopback browser clients", () => {
  test.each(["http://localhost:6274", "http://127.0.0.1:3000", "http://[::1]:8080", "http://localhost"])(
    "Origin %s with a loopback Host is served, with CORS",
    async (origin) => {
      const port = new URL(server.url).port;
      const answer = await postMcp(server, ping, { key, headers: { Host: `localhost:${port}`, Origin: origin } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
    },
  );

  test.each(["http://localhost.evil.example", "http://127.0.0.1.evil.example:80", "http://evil.example", "null", "http://localhost:3000/path"])(
    "Origin %s is still 403 with a loopback Host",
    async (origin) => {
      const answer = await postMcp(server, ping, { key, headers: { Host: "localhost", Origin: origin } });
      expect(answer.status).toBe(403);
      expect(answer.json.error.message).toContain("may not use /mcp");
    },
  );

  describe("on a server bound to every interface", () => {
    let open: TestServer;
    beforeAll(async () => {
      open = await startTestServer({ demo: false, app: { hostname: "0.0.0.0" } });
    });
    afterAll(() => open.close());

    test("a loopback Origin with a foreign Host is 403 (the Host says it is not a local client)", async () => {
      const openKey = await open.createKey();
      const answer = await postMcp(open, ping, { key: openKey, headers: { Host: "directory.example.com", Origin: "http://localhost:6274" } });
      expect(answer.status).toBe(403);
      expect(answer.json.error.message).toContain('Origin "http://localhost:6274" may not use /mcp');
    });

    test("a loopback Origin with a loopback Host is served; a foreign Origin is not", async () => {
      const openKey = await open.createKey();
      const port = new URL(open.url).port;
      expect((await postMcp(open, ping, { key: openKey, headers: { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` } })).status).toBe(200);
      expect((await postMcp(open, ping, { key: openKey, headers: { Host: `127.0.0.1:${port}`, Origin: "https://evil.example" } })).status).toBe(403);
    });
  });
});
