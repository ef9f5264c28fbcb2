/**
 * Issue 25 item 6: a workspace cannot raise its own limits. A key made or rolled through the API
 * gets at most its creator's own rate limit and the operator's ceiling (403 past it, as for a
 * scope it does not hold), and a workspace holds at most MAX_KEYS_PER_WORKSPACE live keys (409
 * past it, over the API and the operator's CLI alike).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runCli } from "../cli/cliHarness.ts";
import { consoleRequest, signIn } from "../support/console.ts";
import { databaseFlags, startTestServer, type TestServer } from "../support/server.ts";

const MAX_KEYS = 4;
const CEILING = 10_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ demo: false, app: { keyLimits: { maxKeysPerWorkspace: MAX_KEYS, rateLimitCeiling: CEILING } } });
});
afterAll(() => server.close());

const post = (key: string, path: string, body: unknown) =>
  server.request(path, { key, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

describe("a key gives at most its own rate limit and the operator's ceiling", () => {
  test("a 50/min manager cannot create a 1,000,000/min key (403 naming its own limit); at 50 it can; unnamed it gets its own 50", async () => {
    const manager = await server.createKey({ workspace: "slow", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 50 });
    const refused = await post(manager, "/api/v1/keys", { name: "fast", scopes: ["brokers:read"], rateLimitPerMinute: 1_000_000 });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toContain("up to its own (50/min)");
    const equal = await post(manager, "/api/v1/keys", { name: "equal", scopes: ["brokers:read"], rateLimitPerMinute: 50 });
    expect(equal.status).toBe(201);
    const unnamed = await post(manager, "/api/v1/keys", { name: "unnamed", scopes: ["brokers:read"] });
    expect(((await unnamed.json()) as { data: { rateLimitPerMinute: number } }).data.rateLimitPerMinute).toBe(50);
    expect((await server.rows("SELECT name FROM api_keys WHERE rate_limit_per_minute > 50")).length).toBe(0);
  });

  test("the same over tRPC", async () => {
    const manager = await server.createKey({ workspace: "slow-trpc", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 5 });
    const refused = await post(manager, "/trpc/keys.create", { json: { name: "fast", scopes: ["brokers:read"], rateLimitPerMinute: 1_000_000 } });
    expect(refused.status).toBe(403);
  });

  test("a fast key (made by the CLI) and the console are held to the ceiling", async () => {
    const manager = await server.createKey({ workspace: "fast", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 100_000 });
    const refused = await post(manager, "/api/v1/keys", { name: "faster", scopes: ["brokers:read"], rateLimitPerMinute: CEILING + 1 });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toContain(`${CEILING}/min`);
    expect((await post(manager, "/api/v1/keys", { name: "at ceiling", scopes: ["brokers:read"], rateLimitPerMinute: CEILING })).status).toBe(201);
    const session = await signIn(server, "fast");
    const viaConsole = await consoleRequest(server, session, "/console/api/keys", { method: "POST", body: { name: "console", scopes: ["brokers:read"], rateLimitPerMinute: 1_000_000 } });
    expect(viaConsole.status).toBe(403);
  });

  test("a roll cannot hand a slow manager a faster key than its own (403)", async () => {
    const manager = await server.createKey({ workspace: "roller", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 50 });
    await server.createKey({ workspace: "roller", name: "operator's fast key", scopes: ["brokers:read"], rateLimitPerMinute: 600 });
    const [fast] = await server.rows<{ id: string }>("SELECT id FROM api_keys WHERE name = ?", ["operator's fast key"]);
    const refused = await post(manager, `/api/v1/keys/${fast!.id}/roll`, { grace: "now" });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toContain("600 requests per minute");
  });
});

describe("a workspace holds at most MAX_KEYS_PER_WORKSPACE live keys", () => {
  test("over REST: past the maximum a create is a 409; a roll with a grace too, with grace now it fits; revoking makes room", async () => {
    const manager = await server.createKey({ workspace: "full", scopes: ["keys:manage", "brokers:read"] });
    const made: string[] = [];
    for (let i = 1; i < MAX_KEYS; i++) {
      const response = await post(manager, "/api/v1/keys", { name: `k${i}`, scopes: ["brokers:read"] });
      expect(response.status).toBe(201);
      made.push(((await response.json()) as { data: { id: string } }).data.id);
    }
    const refused = await post(manager, "/api/v1/keys", { name: "one too many", scopes: ["brokers:read"] });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toContain(`its maximum of ${MAX_KEYS}`);
    expect((await post(manager, `/api/v1/keys/${made[0]}/roll`, { grace: "24h" })).status).toBe(409);
    expect((await post(manager, `/api/v1/keys/${made[0]}/roll`, { grace: "now" })).status).toBe(200);
    expect((await post(manager, `/api/v1/keys/${made[1]}/revoke`, {})).status).toBe(200);
    expect((await post(manager, "/api/v1/keys", { name: "in its place", scopes: ["brokers:read"] })).status).toBe(201);
    const [live] = await server.rows<{ n: number | string }>(
      "SELECT count(*) AS n FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE w.name = 'full' AND k.revoked_at IS NULL",
    );
    expect(Number(live!.n)).toBe(MAX_KEYS);
  });

  test("concurrent creates cannot slip past it", async () => {
    const manager = await server.createKey({ workspace: "racing", scopes: ["keys:manage", "brokers:read"] });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(manager, "/api/v1/keys", { name: `r${i}`, scopes: ["brokers:read"] })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
  });

  test("the operator's `keys create` is bound by it too (exit 1, one line), and goes past it with a higher MAX_KEYS_PER_WORKSPACE", async () => {
    for (let i = 0; i < MAX_KEYS; i++) await server.createKey({ workspace: "cli-full" });
    const env = { MAX_KEYS_PER_WORKSPACE: String(MAX_KEYS) };
    const refused = await runCli(["keys", "create", "--workspace", "cli-full", ...databaseFlags(server)], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`already has ${MAX_KEYS} live keys (MAX_KEYS_PER_WORKSPACE)`);
    expect(refused.stderr).not.toContain("    at ");
    const raised = await runCli(["keys", "create", "--workspace", "cli-full", ...databaseFlags(server)], { MAX_KEYS_PER_WORKSPACE: String(MAX_KEYS + 1) });
    expect(raised.code).toBe(0);
  }, 30_000);
});
