/**
 * The error catalogue holds: every code of the vocabulary (src/schemas/errorCodes.ts) has its
 * entry on the manual's errors page with the status the server gives it, is in the OpenAPI
 * `code` enum, and is given by the server today — each provoked here through a real server (or,
 * for the few that need a fault this file cannot cheaply make, by the test named in ELSEWHERE,
 * which asserts the code). Every error body carries the code, the request's id (the same as
 * its X-Request-Id header and as the requestId of its log line) and the code's manual link; the
 * same codes come through tRPC and MCP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { statusOf } from "../../src/adapters/errorVocabulary.ts";
import { createLogger } from "../../src/log.ts";
import { ERROR_CODES, type ErrorCode } from "../../src/schemas/errorCodes.ts";
import { AUTH_FAILURES_PER_MINUTE } from "../../src/auth/authFailureThrottle.ts";
import { MAX_ENDPOINTS_PER_WORKSPACE } from "../../src/domain/webhooks/webhookEvents.ts";
import { signIn } from "../support/console.ts";
import { onPostgres } from "../support/testDatabase.ts";
import { postMcp } from "../mcp/mcpSupport.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const ROOT = join(import.meta.dir, "../..");
const ERRORS_PAGE = readFileSync(join(ROOT, "src/adapters/docs/manual/errors.md"), "utf8");

/** Codes this file does not provoke, each with the test that does (and asserts the code), and why. */
const ELSEWHERE: Partial<Record<ErrorCode, { test: string; why: string }>> = {
  database_unavailable: { test: "test/pg/pg-unavailable.test.ts", why: "only PostgreSQL can be unreachable" },
  read_only: { test: "test/http/storage-faults.test.ts", why: "a read-only database, on every surface" },
  storage_full: { test: "test/http/storage-faults.test.ts", why: "a full database (max_page_count)" },
  database_busy: { test: "test/http/write-lock-elsewhere.test.ts", why: "another process must hold the write lock past the lock wait" },
  too_many_uploads: { test: "test/http/slow-bodies.test.ts", why: "uploads held open byte by byte" },
  server_busy: { test: "test/unit/client-slots.test.ts", why: "10,000 client addresses with uploads in progress" },
  client_closed_request: { test: "test/http/aborted-uploads.test.ts", why: "the client is gone: nobody reads the body, the log and /metrics count the 499" },
};

const logLines: string[] = [];
let server: TestServer;
let key: string;
let workspaces = 0;

beforeAll(async () => {
  server = await startTestServer({
    app: {
      logger: createLogger("info", (line) => logLines.push(line)),
      // Small enough to fill in a test; no downloads at all, so an export is refused at once.
      keyLimits: { maxKeysPerWorkspace: 3, rateLimitCeiling: 10_000 },
      downloadsPerKey: 0,
    },
  });
  key = await server.createKey({ workspace: "catalogue", rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

/** A key in a workspace of its own (a workspace holds three live keys here). */
const freshKey = (options: Parameters<TestServer["createKey"]>[0] = {}) => server.createKey({ workspace: `w${++workspaces}`, ...options });
const ADMIN_SCOPES = ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read", "keys:manage"] as const;
const EMBED = { origins: ["https://partner.example"], scopes: ["brokers:read" as const] };

const get = (path: string, withKey?: string, headers: Record<string, string> = {}) => server.request(path, { key: withKey, headers });
const post = (path: string, body: string, withKey?: string, contentType = "application/json") =>
  server.request(path, { method: "POST", key: withKey, headers: { "Content-Type": contentType }, body });

/** Makes a key through the API (as a workspace does), returning the secret and its id. */
async function apiKey(admin: string, settings: Record<string, unknown> = {}): Promise<{ secret: string; id: string }> {
  const res = await post("/api/v1/keys", JSON.stringify({ name: "made", scopes: ["brokers:read"], ...settings }), admin);
  expect(res.status).toBe(201);
  const body = (await res.json()) as { key: string; data: { id: string } };
  return { secret: body.key, id: body.data.id };
}

/** A request that must fail with `code`; `data` finds the code's fields in a body that is not a REST one. */
interface Case {
  code: ErrorCode;
  send: () => Promise<Response>;
  data?: (body: any) => Record<string, unknown>;
  /** Made in the SQLite file itself (over PostgreSQL the directory is a replica that reloads). */
  sqliteOnly?: boolean;
}

const jsonRpcData = (body: any) => body.error.data;

const CASES: Case[] = [
  // What was sent.
  { code: "invalid_parameter", send: () => get("/api/v1/brokers?limit=1000", key) },
  { code: "invalid_json", send: () => post("/api/v1/leads", "{", key) },
  {
    // One Idempotency-Key, then another body under it.
    code: "idempotency_conflict",
    send: async () => {
      const lead = (email: string) => JSON.stringify({ name: "Ann Lee", email, phone: "416-555-0100", insuranceType: "Auto" });
      const keyed = (body: string) => server.request("/api/v1/leads", { method: "POST", key, headers: { "Content-Type": "application/json", "Idempotency-Key": "catalogue-conflict" }, body });
      expect((await keyed(lead("first@example.com"))).status).toBe(201);
      return keyed(lead("second@example.com"));
    },
  },
  {
    // Every line and province has enough carriers in the shipped catalogue: two are left for a moment.
    code: "not_enough_carriers",
    sqliteOnly: true,
    send: async () => {
      const db = server.app.services.db.$client;
      db.exec("CREATE TEMP TABLE carriers_kept AS SELECT * FROM carriers");
      db.exec("DELETE FROM carriers WHERE slug NOT IN (SELECT slug FROM carriers ORDER BY slug LIMIT 2)");
      try {
        return await post("/api/v1/embed/quotes", JSON.stringify({ insuranceType: "Travel", province: "AB", postalCode: "T2P 1J9", details: { tripDays: 7, travellerAges: [35], destination: "usa" } }), key);
      } finally {
        db.exec("DELETE FROM carriers; INSERT INTO carriers SELECT * FROM carriers_kept; DROP TABLE carriers_kept");
      }
    },
  },
  { code: "payload_too_large", send: () => post("/api/v1/leads", JSON.stringify({ notes: "x".repeat(70_000) }), key) },
  { code: "unsupported_media_type", send: () => post("/api/v1/leads", "{}", key, "text/plain") },
  {
    code: "not_acceptable",
    send: () => server.request("/mcp", { method: "POST", key, headers: { "Content-Type": "application/json", Accept: "text/html" }, body: "{}" }),
    data: jsonRpcData,
  },
  { code: "invalid_request_target", send: () => get("/api/v1/brokers/a%2fb", key) },
  { code: "request_target_too_long", send: () => get(`/api/v1/brokers?q=${"a".repeat(9_000)}`, key) },
  { code: "not_found", send: () => get("/nowhere") },
  { code: "method_not_allowed", send: () => server.request("/api/v1/brokers", { method: "DELETE", key }) },
  // The key.
  { code: "missing_api_key", send: () => get("/api/v1/brokers") },
  { code: "malformed_authorization", send: () => get("/api/v1/brokers", undefined, { Authorization: "Basic dXNlcjpwYXNz" }) },
  { code: "invalid_api_key", send: () => get("/api/v1/brokers", `brk_${"A".repeat(43)}`) },
  {
    code: "api_key_revoked",
    send: async () => {
      const admin = await freshKey({ scopes: [...ADMIN_SCOPES] });
      const made = await apiKey(admin);
      expect((await post(`/api/v1/keys/${made.id}/revoke`, "{}", admin)).status).toBe(200);
      return get("/api/v1/brokers", made.secret);
    },
  },
  { code: "api_key_expired", send: async () => get("/api/v1/brokers", await freshKey({ expiresAt: Date.now() - 1_000 })) },
  { code: "embed_key_not_allowed", send: async () => get("/api/v1/brokers", await freshKey(EMBED)) },
  { code: "origin_missing", send: async () => get("/api/v1/embed/brokers", await freshKey(EMBED)) },
  { code: "origin_not_allowed", send: async () => get("/api/v1/embed/brokers", await freshKey(EMBED), { Origin: "https://elsewhere.example" }) },
  { code: "server_key_in_browser", send: async () => get("/api/v1/brokers", await freshKey(), { Origin: "https://evil.example" }) },
  { code: "scope_missing", send: async () => get("/api/v1/brokers", await freshKey({ scopes: ["reviews:read"] })) },
  {
    code: "rate_limited",
    send: async () => {
      const once = await freshKey({ rateLimitPerMinute: 1 });
      expect((await get("/api/v1/brokers?limit=1", once)).status).toBe(200);
      return get("/api/v1/brokers?limit=1", once);
    },
  },
  { code: "too_many_downloads", send: () => get("/api/v1/leads.csv", key) },
  // What was named.
  { code: "broker_not_found", send: () => get("/api/v1/brokers/no-such-broker", key) },
  { code: "quote_not_found", send: () => get(`/api/v1/embed/quotes/qt_${"0".repeat(32)}`, key) },
  { code: "lead_not_found", send: () => get("/api/v1/leads/ld_nothing", key) },
  { code: "key_not_found", send: async () => post("/api/v1/keys/key_0000000000000000/revoke", "{}", await freshKey({ scopes: [...ADMIN_SCOPES] })) },
  // Managing keys: one workspace of three live keys at most.
  { code: "scope_not_grantable", send: async () => post("/api/v1/keys", JSON.stringify({ name: "wide", scopes: ["leads:read"] }), await freshKey({ scopes: ["brokers:read", "keys:manage"] })) },
  {
    code: "rate_limit_not_grantable",
    send: async () => post("/api/v1/keys", JSON.stringify({ name: "fast", scopes: ["brokers:read"], rateLimitPerMinute: 5_000 }), await freshKey({ scopes: [...ADMIN_SCOPES] })),
  },
  {
    code: "key_not_active",
    send: async () => {
      const admin = await freshKey({ scopes: [...ADMIN_SCOPES] });
      const made = await apiKey(admin);
      await post(`/api/v1/keys/${made.id}/revoke`, "{}", admin);
      return post(`/api/v1/keys/${made.id}/roll`, JSON.stringify({ grace: "24h" }), admin);
    },
  },
  {
    code: "key_already_rolled",
    send: async () => {
      const admin = await freshKey({ scopes: [...ADMIN_SCOPES] });
      const made = await apiKey(admin);
      expect((await post(`/api/v1/keys/${made.id}/roll`, JSON.stringify({ grace: "24h" }), admin)).status).toBe(200);
      return post(`/api/v1/keys/${made.id}/roll`, JSON.stringify({ grace: "24h" }), admin);
    },
  },
  {
    code: "key_limit_reached",
    send: async () => {
      const admin = await freshKey({ scopes: [...ADMIN_SCOPES] });
      await apiKey(admin);
      await apiKey(admin);
      return post("/api/v1/keys", JSON.stringify({ name: "fourth", scopes: ["brokers:read"] }), admin);
    },
  },
  // Managing webhook endpoints (issue 28): 20 endpoints at most per workspace.
  { code: "webhook_not_found", send: async () => get("/api/v1/webhooks/we_nothing", await freshKey({ scopes: ["webhooks:manage"] })) },
  { code: "review_not_found", send: async () => post("/api/v1/directory/reviews/999999999/restore", "{}", await freshKey({ scopes: ["directory:write"] })) },
  {
    code: "webhook_limit_reached",
    send: async () => {
      const manager = await freshKey({ scopes: ["webhooks:manage"], rateLimitPerMinute: 10_000 });
      const endpoint = (n: number) => JSON.stringify({ url: `https://hooks.example.com/${n}`, events: ["lead.created"] });
      for (let n = 0; n < MAX_ENDPOINTS_PER_WORKSPACE; n++) expect((await post("/api/v1/webhooks", endpoint(n), manager)).status).toBe(201);
      return post("/api/v1/webhooks", endpoint(MAX_ENDPOINTS_PER_WORKSPACE), manager);
    },
  },
  // The console and the operator's pages.
  { code: "session_required", send: () => get("/console/api/session") },
  {
    code: "csrf_token_invalid",
    send: async () => {
      const session = await signIn(server, `console-${++workspaces}`);
      return server.request("/console/api/sign-out", { method: "POST", headers: { Cookie: session.cookie, Origin: server.url } });
    },
  },
  { code: "host_not_allowed", send: () => get("/metrics", undefined, { Host: "attacker.example:80" }) },
  { code: "local_only", send: () => get("/metrics", undefined, { "X-Forwarded-For": "203.0.113.9" }) },
  { code: "invalid_metrics_token", send: () => get("/metrics", undefined, { Authorization: "Bearer not-the-token" }) },
  // The service: a table that went missing under the running server is a fault of ours.
  {
    code: "internal_error",
    send: async () => {
      await server.rows("ALTER TABLE key_usage_daily RENAME TO key_usage_daily_away");
      try {
        return await get("/api/v1/keys/usage", await freshKey({ scopes: [...ADMIN_SCOPES] }));
      } finally {
        await server.rows("ALTER TABLE key_usage_daily_away RENAME TO key_usage_daily");
      }
    },
  },
  // Last: from here on this address's bad keys are throttled.
  {
    code: "too_many_auth_failures",
    send: async () => {
      for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++) await get("/api/v1/brokers", `brk_${"B".repeat(43)}`);
      return get("/api/v1/brokers", `brk_${"B".repeat(43)}`);
    },
  },
];

/** The rows of the errors page's tables: each code's anchor, name and status. */
function documented(): { code: string; status: number }[] {
  return [...ERRORS_PAGE.matchAll(/^\| <a id="([a-z_]+)"><\/a>`([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => {
    expect(m[2], "an entry's anchor is its code").toBe(m[1]!);
    return { code: m[1]!, status: Number(m[3]) };
  });
}

function srcFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? srcFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the catalogue", () => {
  test("the errors page has one entry per code of the vocabulary, each with the status the server gives it", () => {
    const rows = documented();
    expect(rows.map((r) => r.code).sort()).toEqual([...ERROR_CODES].sort());
    for (const { code, status } of rows) expect({ code, status }).toEqual({ code, status: statusOf(code as ErrorCode) });
  });

  test("the OpenAPI Error schema enumerates every code", async () => {
    const document = (await (await server.request("/api/v1/openapi.json")).json()) as { components: { schemas: { Error: { properties: { code: { enum: string[] } } } } } };
    expect(document.components.schemas.Error.properties.code.enum).toEqual([...ERROR_CODES]);
  });

  test("every error of ours is made with its code: no bare TRPCError in src/, and every code is given somewhere", () => {
    const files = srcFiles(join(ROOT, "src")).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, "utf8") }));
    expect(files.filter((f) => f.text.includes("new TRPCError(")).map((f) => f.path)).toEqual([]);
    // Outside the vocabulary and the French table, each code is named where it is given.
    const givers = files.filter((f) => !f.path.endsWith("schemas/errorCodes.ts") && !f.path.endsWith("adapters/frenchErrors.ts"));
    expect(ERROR_CODES.filter((code) => !givers.some((f) => f.text.includes(`"${code}"`)))).toEqual([]);
  });

  test("every code is provoked here or by the test ELSEWHERE names, which asserts it", () => {
    const provoked = new Set([...CASES.map((c) => c.code), ...Object.keys(ELSEWHERE)]);
    expect(ERROR_CODES.filter((code) => !provoked.has(code))).toEqual([]);
    expect(CASES.filter((c) => c.code in ELSEWHERE).map((c) => c.code)).toEqual([]);
    for (const [code, { test: file }] of Object.entries(ELSEWHERE)) {
      const text = readFileSync(join(ROOT, file!), "utf8");
      if (code !== "client_closed_request") expect(text, `${file} asserts ${code}`).toContain(`"${code}"`);
    }
  });
});

describe("the same codes through tRPC (data.errorCode) and MCP (error.data, a tool result's _meta)", () => {
  const trpc = (path: string, input: unknown, withKey?: string) =>
    get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, withKey);

  test.each([
    ["broker_not_found", "NOT_FOUND", () => trpc("brokers.get", { slug: "no-such-broker" }, key)],
    ["invalid_parameter", "BAD_REQUEST", () => trpc("brokers.search", { limit: 1000 }, key)],
    ["missing_api_key", "UNAUTHORIZED", () => trpc("brokers.search", {})],
    ["not_found", "NOT_FOUND", () => trpc("nothing.here", {}, key)],
  ] as const)("tRPC: %s (tRPC's own data.code %s unchanged)", async (code, trpcCode, send) => {
    const res = await send();
    const { data } = ((await res.json()) as { error: { json: { data: Record<string, unknown> } } }).error.json;
    expect(data).toMatchObject({ code: trpcCode, errorCode: code, docs: `/docs/manual/errors#${code}`, requestId: res.headers.get("x-request-id") });
  });

  const tool = (name: string, args: unknown, withKey = key) => postMcp(server, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }, { key: withKey });
  const toolCode = (answer: { json: any }) => answer.json.result._meta["broker-directory/error"];

  test("MCP tool errors: the code, request id and manual link under _meta, the message for the model in content", async () => {
    const missing = await tool("get_broker", { slug: "no-such-broker" });
    expect(missing.json.result.isError).toBe(true);
    expect(toolCode(missing)).toEqual({ code: "broker_not_found", requestId: missing.headers.get("x-request-id"), docs: "/docs/manual/errors#broker_not_found" });
    expect(toolCode(await tool("search_brokers", { limit: 0 }))).toMatchObject({ code: "invalid_parameter" });
    expect(toolCode(await tool("search_brokers", {}, await freshKey({ scopes: ["reviews:read"] })))).toMatchObject({ code: "scope_missing" });
  });

  test("MCP JSON-RPC errors and the 401 carry the code too", async () => {
    const unknown = await postMcp(server, { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "broker://brokers/no-such-broker" } }, { key });
    expect(unknown.json.error.data).toMatchObject({ code: "broker_not_found", requestId: unknown.headers.get("x-request-id") });
    const once = await freshKey({ rateLimitPerMinute: 1 });
    await postMcp(server, { jsonrpc: "2.0", id: 3, method: "ping" }, { key: once });
    const limited = await postMcp(server, { jsonrpc: "2.0", id: 4, method: "ping" }, { key: once });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatchObject({ code: -31429, data: { code: "rate_limited", retryAfterSeconds: expect.any(Number) } });
    const anonymous = await postMcp(server, { jsonrpc: "2.0", id: 5, method: "ping" });
    expect(anonymous.json).toMatchObject({ error: "invalid_token", code: "missing_api_key", requestId: anonymous.headers.get("x-request-id") });
  });
});

describe("every code through a real server: its status, code, request id and manual link", () => {
  test.each(CASES.map((c) => [c.code, c] as const))("%s", async (code, { send, data, sqliteOnly }) => {
    if (sqliteOnly && onPostgres) return;
    const res = await send();
    const text = await res.text();
    expect(res.status, text).toBe(code === "not_acceptable" ? 406 : statusOf(code));
    const body = JSON.parse(text);
    const fields = data ? data(body) : body;
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    expect(fields).toMatchObject({ code, requestId, docs: `/docs/manual/errors#${code}` });
    if (!data) expect(typeof body.error).toBe("string");
  });

  test("the request id of an error is the requestId of its access-log line, and of the fault's detail", async () => {
    const refused = await get("/api/v1/brokers/no-such-broker", key, { "X-Request-Id": "support-case-42" });
    expect(((await refused.json()) as { requestId: string }).requestId).toBe("support-case-42");
    const lines = logLines.map((line) => JSON.parse(line) as { msg: string; requestId?: string; status?: number });
    expect(lines.find((l) => l.msg === "request" && l.requestId === "support-case-42")).toMatchObject({ status: 404 });
    // The internal_error case above logged its detail under its request id, the one its body gave.
    const faults = lines.filter((l) => l.msg === "procedure failed");
    expect(faults.length).toBeGreaterThan(0);
    for (const fault of faults) expect(lines.some((l) => l.msg === "request" && l.requestId === fault.requestId && l.status === 500)).toBe(true);
  });
});
