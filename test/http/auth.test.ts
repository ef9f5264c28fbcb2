import { eventually } from "../support/eventually.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function expect401(res: Response, fragment: string, code: string) {
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toStartWith("Bearer");
  const body = (await res.json()) as { error: string; code: string };
  expect(Object.keys(body)).toEqual(["error", "code", "requestId", "docs"]);
  expect(body.error).toContain(fragment);
  expect(body.code).toBe(code);
}

describe("401: who is calling", () => {
  test("missing key", async () => {
    await expect401(await server.request("/api/v1/brokers"), "Missing API key", "missing_api_key");
  });

  test.each([["Basic dXNlcjpwYXNz"], ["Bearer"], ["brk_abc"], ["Bearer a b"]])("malformed header %s", async (header) => {
    await expect401(await server.request("/api/v1/brokers", { headers: { Authorization: header } }), "Authorization", "malformed_authorization");
  });

  test.each([["brk_short"], ["sk_live_" + "a".repeat(43)], ["brk_" + "A".repeat(43)], ["brk_" + "A".repeat(43) + "'--"]])("unknown or malformed key %#", async (key) => {
    await expect401(await server.request("/api/v1/brokers", { key }), "Invalid API key", "invalid_api_key");
  });

  test("revoked key", async () => {
    const key = await server.createKey();
    const id = (await server.app.services.keys.list()).at(-1)!.id;
    expect((await server.request("/api/v1/brokers", { key })).status).toBe(200);
    await server.app.services.keys.revoke(id, Date.now());
    await expect401(await server.request("/api/v1/brokers", { key }), "revoked", "api_key_revoked");
  });

  test("expired key", async () => {
    const key = await server.createKey({ expiresAt: Date.now() - 1000 });
    await expect401(await server.request("/api/v1/brokers", { key }), "expired", "api_key_expired");
  });

  test("a key that has not expired yet works", async () => {
    const key = await server.createKey({ expiresAt: Date.now() + 3_600_000 });
    expect((await server.request("/api/v1/brokers", { key })).status).toBe(200);
  });

  test("the scheme is case-insensitive", async () => {
    const key = await server.createKey();
    expect((await server.request("/api/v1/brokers", { headers: { Authorization: `bearer ${key}` } })).status).toBe(200);
  });
});

describe("403: what the key may do", () => {
  test("a key without the route's scope is refused, naming the scope", async () => {
    const key = await server.createKey({ scopes: ["reviews:read"] });
    const res = await server.request("/api/v1/brokers", { key });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain("brokers:read");
    const reviews = await server.request("/api/v1/brokers/x", { key });
    expect(reviews.status).toBe(403);
  });

  test("reviews need reviews:read", async () => {
    const key = await server.createKey({ scopes: ["brokers:read"] });
    const res = await server.request("/api/v1/reviews/1", { key });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain("reviews:read");
  });

  test("a key created with no scopes has all of them", async () => {
    const key = await server.createKey({ scopes: [], name: "no scopes named" });
    expect((await server.request("/api/v1/brokers", { key })).status).toBe(200);
    expect((await server.request("/api/v1/reviews/1", { key })).status).not.toBe(403);
    // Found by name: keys made in the same millisecond may list in either order.
    const stored = (await server.app.services.keys.list()).find((k) => k.name === "no scopes named")!;
    expect(stored.scopes).toEqual(["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"]);
  });

  test("an embed key (with origins) is refused on non-embed paths", async () => {
    const key = await server.createKey({ origins: ["https://partner.example"] });
    const res = await server.request("/api/v1/brokers", { key, headers: { Origin: "https://partner.example" } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain("embed");
  });
});

describe("keys at rest", () => {
  test("only the SHA-256 hash of a key is stored", async () => {
    const key = await server.createKey();
    const rows = await server.rows("SELECT * FROM api_keys");
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key);
    const hash = new Bun.CryptoHasher("sha256").update(key).digest("hex");
    expect(rows.some((r) => r.hash === hash)).toBe(true);
  });

  test("keys are brk_ plus 256 bits of base64url", async () => {
    const key = await server.createKey();
    expect(key).toMatch(/^brk_[A-Za-z0-9_-]{43}$/);
    expect(await server.createKey()).not.toBe(key);
  });

  test("use is recorded in lastUsedAt", async () => {
    const key = await server.createKey({ name: "tracked" });
    await server.request("/api/v1/brokers", { key });
    // Over PostgreSQL the stamp is written in the background (it never delays the request).
    const stamped = async () => typeof (await server.app.services.keys.list()).find((k) => k.name === "tracked")!.lastUsedAt === "number";
    expect(await eventually(stamped)).toBe(true);
  });
});
