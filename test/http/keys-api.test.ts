/**
 * Keys over REST (and tRPC) for scripts: keys:manage is never implicit; list, create, revoke and
 * roll stay inside the caller's workspace; no answer but the creating one carries a full key.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { consoleRequest, signIn } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const FULL_KEY = /brk_[A-Za-z0-9_-]{43}/;
let server: TestServer;
let manager: string;
let otherManager: string;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  // 1,000/min: a key can only give a rate limit up to its own, and these tests give up to 600.
  manager = await server.createKey({ workspace: "acme", scopes: ["keys:manage", "brokers:read", "leads:read", "leads:write", "quotes:write", "reviews:read"], rateLimitPerMinute: 1_000 });
  otherManager = await server.createKey({ workspace: "globex", scopes: ["keys:manage", "brokers:read"] });
});
afterAll(() => server.close());

interface KeyView { id: string; name: string; prefix: string; kind: string; scopes: string[]; status: string; expiresAt: string | null; revokedAt: string | null; origins: string[] | null }

const json = (key: string, path: string, method = "GET", body?: unknown) =>
  server.request(path, { key, method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

async function create(body: unknown, key = manager): Promise<{ key: string; data: KeyView }> {
  const response = await json(key, "/api/v1/keys", "POST", body);
  expect(response.status).toBe(201);
  return (await response.json()) as { key: string; data: KeyView };
}

describe("keys:manage is never implicit", () => {
  test("a key made without scopes (CLI default) holds the five, not keys:manage: 403 naming the scope", async () => {
    const plain = await server.createKey({ workspace: "acme" });
    const response = await json(plain, "/api/v1/keys");
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain("keys:manage");
    const listed = (await server.app.services.keys.list()).find((k) => plain.startsWith(k.displayPrefix))!;
    expect(listed.scopes).toEqual(["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"]);
  });

  test("so is every keys route, and the usage", async () => {
    const plain = await server.createKey({ workspace: "acme" });
    for (const [method, path] of [["POST", "/api/v1/keys"], ["POST", "/api/v1/keys/key_x/revoke"], ["POST", "/api/v1/keys/key_x/roll"], ["GET", "/api/v1/keys/usage"]] as const) {
      const response = await json(plain, path, method, method === "POST" ? {} : undefined);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });

  test("an embed key can never manage keys: it cannot be created with keys:manage (422)", async () => {
    const response = await json(manager, "/api/v1/keys", "POST", { name: "w", scopes: ["keys:manage"], origins: ["https://blog.example"] });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { issues: { path: string }[] }).issues[0]!.path).toBe("scopes");
  });

  test("a key cannot grant scopes it does not hold (403), so keys:manage cannot mint wider keys", async () => {
    const narrow = await create({ name: "narrow manager", scopes: ["keys:manage"] });
    const response = await json(narrow.key, "/api/v1/keys", "POST", { name: "wider", scopes: ["leads:read"] });
    expect(response.status).toBe(403);
  });
});

describe("list, create, revoke, roll", () => {
  test("create answers the full key once; it works; list shows it by prefix only", async () => {
    const made = await create({ name: "crm sync", scopes: ["leads:read"], rateLimitPerMinute: 600 });
    expect(made.key).toMatch(FULL_KEY);
    expect(made.data).toMatchObject({ name: "crm sync", kind: "server", scopes: ["leads:read"], status: "active", origins: null });
    expect(made.key.startsWith(made.data.prefix)).toBe(true);
    expect((await json(made.key, "/api/v1/leads")).status).toBe(200);
    const listing = await json(manager, "/api/v1/keys");
    const text = await listing.text();
    expect(text).not.toMatch(FULL_KEY);
    expect(text).not.toContain("hash");
    const { data } = JSON.parse(text) as { data: KeyView[] };
    expect(data.map((k) => k.id)).toContain(made.data.id);
  });

  test("origins make an embed key", async () => {
    const made = await create({ name: "blog widget", scopes: ["brokers:read", "quotes:write"], origins: ["https://Blog.Example:443"] });
    expect(made.data.kind).toBe("embed");
    expect(made.data.origins).toEqual(["https://blog.example"]);
  });

  const badInputs: [string, unknown, string][] = [
    ["no name", { scopes: ["brokers:read"] }, "name"],
    ["an empty name", { name: "  ", scopes: ["brokers:read"] }, "name"],
    ["no scopes", { name: "x", scopes: [] }, "scopes"],
    ["an unknown scope", { name: "x", scopes: ["everything"] }, "scopes.0"],
    ["a rate limit of 0", { name: "x", scopes: ["brokers:read"], rateLimitPerMinute: 0 }, "rateLimitPerMinute"],
    ["an expiry in the past", { name: "x", scopes: ["brokers:read"], expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt"],
    ["an expiry that is no date", { name: "x", scopes: ["brokers:read"], expiresAt: "tomorrow" }, "expiresAt"],
    ["an origin with a path", { name: "x", scopes: ["brokers:read"], origins: ["https://a.example/page"] }, "origins.0"],
    ["an unknown field", { name: "x", scopes: ["brokers:read"], admin: true }, "admin"],
  ];
  for (const [what, body, path] of badInputs) {
    test(`create with ${what}: 422 on ${path}, nothing stored`, async () => {
      const before = (await server.app.services.keys.count());
      const response = await json(manager, "/api/v1/keys", "POST", body);
      expect(response.status).toBe(422);
      const answer = (await response.json()) as { error: string; issues: { path: string }[] };
      expect(answer.issues.map((i) => i.path)).toContain(path);
      expect(await server.app.services.keys.count()).toBe(before);
    });
  }

  test("a body that is not JSON is 415/422, never 500", async () => {
    expect((await server.request("/api/v1/keys", { key: manager, method: "POST", body: "name=x" })).status).toBe(415);
    expect((await server.request("/api/v1/keys", { key: manager, method: "POST", headers: { "Content-Type": "application/json" }, body: "[1]" })).status).toBe(422);
  });

  test("revoke: the next request with the key is a 401; revoking twice keeps the first time", async () => {
    const made = await create({ name: "to revoke", scopes: ["brokers:read"] });
    const revoked = await json(manager, `/api/v1/keys/${made.data.id}/revoke`, "POST");
    expect(revoked.status).toBe(200);
    const { data } = (await revoked.json()) as { data: KeyView };
    expect(data.status).toBe("revoked");
    expect((await json(made.key, "/api/v1/brokers")).status).toBe(401);
    const again = (await (await json(manager, `/api/v1/keys/${made.data.id}/revoke`, "POST")).json()) as { data: KeyView };
    expect(again.data.revokedAt).toBe(data.revokedAt);
  });

  test("roll with grace now: a new key of the same settings works, the old one is a 401 at once", async () => {
    const old = await create({ name: "rolling", scopes: ["brokers:read", "leads:read"], rateLimitPerMinute: 250 });
    const response = await json(manager, `/api/v1/keys/${old.data.id}/roll`, "POST", { grace: "now" });
    expect(response.status).toBe(200);
    const rolled = (await response.json()) as { key: string; data: KeyView & { rateLimitPerMinute: number }; previous: KeyView };
    expect(rolled.key).toMatch(FULL_KEY);
    expect(rolled.data).toMatchObject({ name: "rolling", scopes: ["brokers:read", "leads:read"], rateLimitPerMinute: 250, status: "active" });
    expect(rolled.previous.status).toBe("revoked");
    expect((await json(old.key, "/api/v1/brokers")).status).toBe(401);
    expect((await json(rolled.key, "/api/v1/brokers")).status).toBe(200);
  });

  test("roll with grace 1h: the old key keeps working and expires in an hour", async () => {
    const old = await create({ name: "graceful", scopes: ["brokers:read"] });
    const before = Date.now();
    const rolled = (await (await json(manager, `/api/v1/keys/${old.data.id}/roll`, "POST", { grace: "1h" })).json()) as { previous: KeyView };
    const expires = Date.parse(rolled.previous.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect((await json(old.key, "/api/v1/brokers")).status).toBe(200);
  });

  test("roll: a revoked key is a 409, a bad grace a 422", async () => {
    const old = await create({ name: "gone", scopes: ["brokers:read"] });
    await json(manager, `/api/v1/keys/${old.data.id}/revoke`, "POST");
    expect((await json(manager, `/api/v1/keys/${old.data.id}/roll`, "POST", { grace: "now" })).status).toBe(409);
    const live = await create({ name: "live", scopes: ["brokers:read"] });
    expect((await json(manager, `/api/v1/keys/${live.data.id}/roll`, "POST", { grace: "3 weeks" })).status).toBe(422);
  });
});

describe("workspace isolation", () => {
  test("another workspace's keys are neither listed nor revocable nor rollable (404), over REST and the console", async () => {
    const acmeKey = await create({ name: "acme only", scopes: ["brokers:read"] });
    const globexList = (await (await json(otherManager, "/api/v1/keys")).json()) as { data: KeyView[] };
    expect(globexList.data.map((k) => k.id)).not.toContain(acmeKey.data.id);
    expect((await json(otherManager, `/api/v1/keys/${acmeKey.data.id}/revoke`, "POST")).status).toBe(404);
    expect((await json(otherManager, `/api/v1/keys/${acmeKey.data.id}/roll`, "POST", { grace: "now" })).status).toBe(404);

    const globexConsole = await signIn(server, "globex");
    expect((await consoleRequest(server, globexConsole, `/console/api/keys/${acmeKey.data.id}/revoke`, { method: "POST" })).status).toBe(404);
    expect((await consoleRequest(server, globexConsole, `/console/api/keys/${acmeKey.data.id}/roll`, { method: "POST", body: { grace: "now" } })).status).toBe(404);
    const consoleList = (await (await consoleRequest(server, globexConsole, "/console/api/keys")).json()) as { data: { data: KeyView[] } };
    expect(consoleList.data.data.map((k) => k.id)).not.toContain(acmeKey.data.id);
    expect((await json(acmeKey.key, "/api/v1/brokers")).status).toBe(200);
  });
});

describe("usage", () => {
  test("requests and rate-limit refusals per key per day, current to the request", async () => {
    const used = await create({ name: "busy", scopes: ["brokers:read"], rateLimitPerMinute: 3 });
    for (let i = 0; i < 5; i++) await json(used.key, "/api/v1/brokers?limit=1");
    const response = await json(manager, "/api/v1/keys/usage?days=7");
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { days: string[]; keys: { keyId: string; requests: number[]; refused: number[]; totalRequests: number; totalRefused: number }[] } };
    expect(data.days).toHaveLength(7);
    expect(data.days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    const busy = data.keys.find((k) => k.keyId === used.data.id)!;
    expect(busy.totalRequests).toBe(3);
    expect(busy.totalRefused).toBe(2);
    expect(busy.requests.at(-1)).toBe(3);
    // Flushed to the daily table, the numbers stay the same (no double counting).
    await server.app.services.usage.flush();
    const after = (await (await json(manager, "/api/v1/keys/usage?days=7")).json()) as typeof data extends infer T ? { data: T } : never;
    expect(after.data.keys.find((k) => k.keyId === used.data.id)!.totalRequests).toBe(3);
    // Another workspace sees none of it.
    const other = (await (await json(otherManager, "/api/v1/keys/usage")).json()) as { data: { keys: { keyId: string }[] } };
    expect(other.data.keys.map((k) => k.keyId)).not.toContain(used.data.id);
  });

  test("days out of range is a 422", async () => {
    for (const days of ["0", "31", "x"]) expect((await json(manager, `/api/v1/keys/usage?days=${days}`)).status).toBe(422);
  });
});

describe("tRPC", () => {
  test("keys.list needs keys:manage over /trpc too", async () => {
    const plain = await server.createKey({ workspace: "acme" });
    const path = `/trpc/keys.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`;
    expect((await json(plain, path)).status).toBe(403);
    const ok = await json(manager, path);
    expect(ok.status).toBe(200);
    expect(await ok.text()).not.toMatch(FULL_KEY);
  });
});
