import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MCP_HEADERS, modernHeaders, modernMeta, postMcp } from "../mcp/mcpSupport.ts";
import { requestsInFlight } from "../support/bodySurfaces.ts";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * A directory read answered from a cache (the response cache, the remembered cache key, the
 * MCP tool-result cache) must be the answer the full path gives: same status, same body byte
 * for byte, same headers (request id and date aside). Each URL is asked three times, each with
 * a fresh key of the same settings (so the rate-limit headers must match too): the first time
 * the procedure runs and nothing is kept (the caches keep an answer from its second request
 * on, see Doorkeeper), the second time it runs again and its answer is kept, the third time
 * the answer comes from the cache.
 */
let server: TestServer;
let slug: string;
let brokerId: string;
const PARTNER = "https://partner.example";

beforeAll(async () => {
  server = await startTestServer();
  const finder = await server.createKey();
  const res = await server.request("/api/v1/brokers?limit=1&page=2", { key: finder });
  const first = ((await res.json()) as { data: { id: string; slug: string }[] }).data[0]!;
  slug = first.slug;
  brokerId = first.id;
});
afterAll(() => server.close());

const cacheEntries = (name: string) => server.app.services.caches.stats().find((s) => s.name === name)!.entries;

interface Seen {
  status: number;
  body: string;
  headers: Record<string, string>;
}

async function fetchSeen(path: string, init: RequestInit & { key: string }): Promise<Seen> {
  const res = await server.request(path, init);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== "x-request-id" && name !== "date"));
  expect(res.headers.get("x-request-id")).toBeTruthy();
  return { status: res.status, body: await res.text(), headers };
}

describe("REST: a cached answer is the full path's answer", () => {
  const cases: { name: string; path: () => string; embed?: boolean }[] = [
    { name: "list", path: () => "/api/v1/brokers?province=ON&limit=20" },
    { name: "detail", path: () => `/api/v1/brokers/${slug}` },
    { name: "reviews", path: () => `/api/v1/reviews/${brokerId}` },
    { name: "embed brokers", path: () => "/api/v1/embed/brokers?limit=5", embed: true },
    { name: "embed reviews", path: () => `/api/v1/embed/reviews?broker=${slug}`, embed: true },
  ];
  for (const { name, path, embed } of cases.filter((c) => c.name !== "detail" && c.name !== "reviews")) {
    test(name, async () => {
      const keyOptions = embed ? { origins: [PARTNER], rateLimitPerMinute: 500 } : { rateLimitPerMinute: 500 };
      const headers = embed ? { Origin: PARTNER } : undefined;
      // A search page the directory holds rendered is kept in the cache in front of those (see
      // restHandler): the list waits for the rendering (asking starts it), so that its three
      // requests take one path, not the full one and then the rendered one.
      if (name === "list") expect(await eventually(() => server.app.services.brokers.renderedSearch({ sort: "name" }, 1, 1, "", () => "") !== undefined, 5_000)).toBe(true);
      const kept = () => cacheEntries("rest-responses") + cacheEntries("rest-rendered-hot");
      const before = kept();
      const full = await fetchSeen(path(), { key: await server.createKey(keyOptions), headers });
      expect(full.status).toBe(200);
      expect(kept()).toBe(before); // asked once: the full path ran, nothing kept
      const again = await fetchSeen(path(), { key: await server.createKey(keyOptions), headers });
      expect(kept()).toBe(before + 1); // asked again: the full path ran and kept its answer
      const cached = await fetchSeen(path(), { key: await server.createKey(keyOptions), headers });
      expect(kept()).toBe(before + 1); // served from the cache, nothing recomputed
      expect(again).toEqual(full);
      expect(cached).toEqual(full);
      expect(full.headers["ratelimit-remaining"]).toBe("499");
      if (embed) expect(full.headers["access-control-allow-origin"]).toBe(PARTNER);
    });
  }

  // A detail, once the index has rendered it, and a first review page, once first answered, come
  // from the directory's rendered answers, then (asked again soon) from a small cache in front:
  // the response cache keeps neither (src/storage/search/renderedAnswers.ts).
  for (const { name, path } of [
    { name: "detail, rendered", path: () => `/api/v1/brokers/${slug}` },
    { name: "reviews, first page kept", path: () => `/api/v1/reviews/${brokerId}` },
  ]) {
    test(name, async () => {
      // Any detail asked for starts the rendering (this one's is not: it would count as an offer).
      await server.request("/api/v1/brokers/no-such-broker", { key: await server.createKey() });
      expect(await eventually(() => server.app.services.brokers.renderedDetail(slug) !== undefined, 5_000)).toBe(true);
      const key = () => server.createKey({ rateLimitPerMinute: 500 });
      const responsesBefore = cacheEntries("rest-responses");
      const hotBefore = cacheEntries("rest-rendered-hot");
      const full = await fetchSeen(path(), { key: await key() });
      expect(full.status).toBe(200);
      const rendered = await fetchSeen(path(), { key: await key() });
      const keptHot = await fetchSeen(path(), { key: await key() });
      expect(cacheEntries("rest-rendered-hot")).toBe(hotBefore + 1); // asked again soon: kept in memory
      const hot = await fetchSeen(path(), { key: await key() });
      expect(cacheEntries("rest-rendered-hot")).toBe(hotBefore + 1);
      expect(cacheEntries("rest-responses")).toBe(responsesBefore);
      for (const answer of [rendered, keptHot, hot]) expect(answer).toEqual(full);
      expect(full.headers["ratelimit-remaining"]).toBe("499");
    });
  }

  test("the same input in another spelling is served the same bytes", async () => {
    const full = await fetchSeen("/api/v1/brokers?province=QC&limit=7", { key: await server.createKey({ rateLimitPerMinute: 500 }) });
    const respelled = await fetchSeen("/api/v1/brokers?limit=7&province=QC&unknown=1", { key: await server.createKey({ rateLimitPerMinute: 500 }) });
    expect(respelled).toEqual(full);
  });
});

describe("MCP: a cached tool result is the full path's result", () => {
  const calls: { name: string; args: () => Record<string, unknown> }[] = [
    { name: "search_brokers", args: () => ({ province: "ON", limit: 20 }) },
    { name: "get_broker", args: () => ({ slug }) },
    { name: "get_reviews", args: () => ({ slug }) },
  ];
  for (const { name, args } of calls) {
    test(name, async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args() } });
      const init = { method: "POST", headers: { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25" }, body };
      const before = cacheEntries("mcp-tool-results");
      const full = await fetchSeen("/mcp", { ...init, key: await server.createKey({ rateLimitPerMinute: 500 }) });
      expect(full.status).toBe(200);
      expect(JSON.parse(full.body).result.isError).toBeUndefined();
      expect(cacheEntries("mcp-tool-results")).toBe(before);
      const again = await fetchSeen("/mcp", { ...init, key: await server.createKey({ rateLimitPerMinute: 500 }) });
      expect(cacheEntries("mcp-tool-results")).toBe(before + 1);
      expect(again).toEqual(full);
      const cached = await fetchSeen("/mcp", { ...init, key: await server.createKey({ rateLimitPerMinute: 500 }) });
      expect(cacheEntries("mcp-tool-results")).toBe(before + 1);
      expect(cached).toEqual(full);
    });
  }

  test("a cached result is the same bytes in the envelope of any id, the kept envelope and a fresh one alike", async () => {
    const call = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_brokers", arguments: { province: "QC", limit: 5 } } });
    const ask = async (id: unknown) =>
      fetchSeen("/mcp", { method: "POST", headers: { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25" }, body: call(id), key: await server.createKey({ rateLimitPerMinute: 500 }) });
    const full = await ask(7); // the full path: nothing kept yet
    const head = '{"jsonrpc":"2.0","id":7,"result":';
    expect(full.body.startsWith(head)).toBe(true);
    const result = full.body.slice(head.length); // the result's JSON and the envelope's closing brace
    const enveloped = (id: unknown) => {
      const body = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}`;
      return { ...full, body, headers: { ...full.headers, "content-length": String(Buffer.byteLength(body)) } };
    };
    await ask(7); // kept from here on
    const before = cacheEntries("mcp-tool-results");
    // Each id twice in a row (the second is the kept envelope), then the first again: same headers, each its id.
    const ids = [7, 7, 8, 8, "é-1", "é-1", "x".repeat(200), "x".repeat(200), 0, 7];
    for (const id of ids) expect(await ask(id)).toEqual(enveloped(id));
    expect(cacheEntries("mcp-tool-results")).toBe(before);
    // The kept envelope is counted: the entry weighs at least twice its result's bytes.
    const stats = server.app.services.caches.stats().find((c) => c.name === "mcp-tool-results")!;
    expect(stats.bytes).toBeGreaterThanOrEqual(2 * Buffer.byteLength(result));
  });

  test("a cached result sent to a browser client (CORS headers, the general answer) is the full path's result", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "search_brokers", arguments: { province: "BC", limit: 4 } } });
    // A page on this machine calling a server reached by a loopback name: allowed, answered with CORS.
    const headers = { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25", Origin: "http://localhost:5173" };
    const ask = async () => fetchSeen("/mcp", { method: "POST", headers, body, key: await server.createKey({ rateLimitPerMinute: 500 }) });
    const before = cacheEntries("mcp-tool-results");
    const full = await ask();
    expect(full.status).toBe(200);
    expect(full.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const again = await ask();
    const cached = await ask();
    expect(cacheEntries("mcp-tool-results")).toBe(before + 1);
    expect(again).toEqual(full);
    expect(cached).toEqual(full);
    // Its bytes are no stream: nothing is left in flight for a graceful stop to wait for.
    expect(await eventually(async () => (await requestsInFlight(server.url)) === 0)).toBe(true);
  });

  test("a 2026-07-28 call, whose results carry more fields, takes the full path even when the 2025 result is cached", async () => {
    const args = { province: "ON", limit: 20 }; // cached above by the 2025 search_brokers call
    const before = cacheEntries("mcp-tool-results");
    const answer = await postMcp(
      server,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_brokers", arguments: args, _meta: modernMeta() } },
      { key: await server.createKey(), headers: modernHeaders("tools/call", "search_brokers") },
    );
    expect(answer.status).toBe(200);
    expect(answer.json.result.resultType).toBe("complete");
    expect(answer.json.result.structuredContent.data.length).toBeGreaterThan(0);
    expect(cacheEntries("mcp-tool-results")).toBe(before);
  });
});

describe("a cached answer still passes admission on every request", () => {
  // Another connection to the same database: what a second instance or the CLI is.
  const elsewhere = (sql: string, name: string) => server.rows(sql, [name]);
  const path = "/api/v1/brokers?province=AB&limit=3";

  test("a key revoked elsewhere is refused on the very next request, though the answer is cached", async () => {
    const key = await server.createKey({ name: "revoked-while-hot" });
    expect((await server.request(path, { key })).status).toBe(200);
    expect((await server.request(path, { key })).status).toBe(200); // from the cache
    await elsewhere("UPDATE api_keys SET revoked_at = 1 WHERE name = ?", "revoked-while-hot");
    expect((await server.request(path, { key })).status).toBe(401);
  });

  test("a key that loses the scope elsewhere is refused on the very next request", async () => {
    const key = await server.createKey({ name: "narrowed-while-hot" });
    expect((await server.request(path, { key })).status).toBe(200);
    await elsewhere(`UPDATE api_keys SET scopes = '["reviews:read"]' WHERE name = ?`, "narrowed-while-hot");
    const res = await server.request(path, { key });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain("brokers:read");
  });

  test("a key at its rate limit gets a 429, not the cached answer", async () => {
    const key = await server.createKey({ rateLimitPerMinute: 2 });
    expect((await server.request(path, { key })).status).toBe(200);
    expect((await server.request(path, { key })).status).toBe(200);
    const res = await server.request(path, { key });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });

  test("an embed key from an origin not on its list is refused, though the answer is cached", async () => {
    const key = await server.createKey({ origins: [PARTNER] });
    const embedPath = "/api/v1/embed/brokers?limit=2";
    expect((await server.request(embedPath, { key, headers: { Origin: PARTNER } })).status).toBe(200);
    expect((await server.request(embedPath, { key, headers: { Origin: PARTNER } })).status).toBe(200);
    expect((await server.request(embedPath, { key, headers: { Origin: "https://elsewhere.example" } })).status).toBe(403);
  });
});
