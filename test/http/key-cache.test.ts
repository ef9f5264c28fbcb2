import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * Keys are cached per process by hash (admission's largest cost), and the cache must never
 * serve a stale key: a change made by another process — here another connection to the same
 * database file, exactly what a second instance or the CLI is — takes effect on the very next
 * request, and so does an expiry passing. lastUsedAt bookkeeping must not empty the cache.
 * Over PostgreSQL, "another connection" is one to the same PostgreSQL database, and the promise
 * is the manual's (scaling-out page): seen once PostgreSQL's NOTIFY arrives (milliseconds), or at the next poll
 * (a second) if it is lost. The announcement races the test's next request, so there the check
 * is `eventually`, bounded by the poll; over SQLite it is the very next request.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(() => server.close());

const onPostgres = () => server.databaseUrl !== undefined;
/** The change is seen on the next request (SQLite) or once announced, within the poll's second (PostgreSQL). */
const seen = async (check: () => Promise<boolean>) => (onPostgres() ? eventually(check, 1_500) : check());
const status = async (key: string, path = "/api/v1/carriers") => (await server.request(path, { key })).status;
const other = { run: (sql: string, params: (string | number)[] = []) => server.rows(sql, params) };
const keyId = async (name: string) => (await server.rows<{ id: string }>("SELECT id FROM api_keys WHERE name = ?", [name]))[0]!.id;
const keysVersion = async () => Number((await server.rows<{ value: number | string }>("SELECT value FROM meta WHERE key = 'keys_version'"))[0]!.value);

test("a revocation written by another process is refused on the next request", async () => {
  const key = await server.createKey({ name: "revoked-elsewhere" });
  expect(await status(key)).toBe(200);
  expect(await status(key)).toBe(200); // now served from the cache
  await other.run("UPDATE api_keys SET revoked_at = ? WHERE id = ?", [Date.now(), await keyId("revoked-elsewhere")]);
  expect(await seen(async () => (await status(key)) === 401)).toBe(true);
});

test("scopes, rate limit and expiry changed elsewhere apply on the next request", async () => {
  const key = await server.createKey({ name: "changed-elsewhere" });
  expect(await status(key, "/api/v1/leads")).toBe(200);
  await other.run(`UPDATE api_keys SET scopes = '["brokers:read"]' WHERE id = ?`, [await keyId("changed-elsewhere")]);
  expect(await seen(async () => (await status(key, "/api/v1/leads")) === 403)).toBe(true);
  await other.run("UPDATE api_keys SET rate_limit_per_minute = 7 WHERE id = ?", [await keyId("changed-elsewhere")]);
  expect(await seen(async () => (await server.request("/api/v1/carriers", { key })).headers.get("RateLimit-Limit") === "7")).toBe(true);
  await other.run("UPDATE api_keys SET expires_at = ? WHERE id = ?", [Date.now() - 1, await keyId("changed-elsewhere")]);
  expect(await seen(async () => (await status(key)) === 401)).toBe(true);
});

test("a cached key stops working the moment its expiry passes", async () => {
  const key = await server.createKey({ name: "expiring", expiresAt: Date.now() + 400 });
  expect(await status(key)).toBe(200);
  await Bun.sleep(450);
  expect(await status(key)).toBe(401);
});

test("a key created elsewhere works at once, though its hash was just looked up and found unknown", async () => {
  const { generateApiKey, hashApiKey, displayPrefix } = await import("../../src/auth/apiKeyFormat.ts");
  const key = generateApiKey();
  expect(await status(key)).toBe(401); // cached as unknown
  const workspace = (await server.rows<{ id: string }>("SELECT workspace_id AS id FROM api_keys LIMIT 1"))[0]!.id;
  await other.run(
    `INSERT INTO api_keys (id, workspace_id, name, display_prefix, hash, scopes, rate_limit_per_minute, created_at)
     VALUES ('key_elsewhere', ?, 'made elsewhere', ?, ?, '["brokers:read"]', 100, ?)`,
    [workspace, displayPrefix(key), hashApiKey(key), Date.now()],
  );
  expect(await seen(async () => (await status(key)) === 200)).toBe(true);
});

test("lastUsedAt bookkeeping does not move keys_version (the cache survives it)", async () => {
  const key = await server.createKey({ name: "bookkeeping" });
  const before = await keysVersion();
  expect(await status(key)).toBe(200);
  // Bookkeeping is written after the answer, in the next write batch: wait for it.
  const id = await keyId("bookkeeping");
  expect(await eventually(async () => (await server.rows("SELECT id FROM api_keys WHERE id = ? AND last_used_at IS NOT NULL", [id])).length === 1, 2_000)).toBe(true);
  expect(await keysVersion()).toBe(before);
});

test("the key cache is bounded, wrong keys included", async () => {
  const stats = server.app.services.caches.stats().find((s) => s.name === "api-keys")!;
  expect(stats.maxEntries).toBeGreaterThan(0);
  expect(stats.entries).toBeLessThanOrEqual(stats.maxEntries);
  expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
});
