import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { MODERN, modernHeaders, modernMeta, postMcp } from "./mcpSupport.ts";

/**
 * The 2026-07-28 revision on the same endpoint: no handshake, the version and client
 * capabilities in every request's `_meta`, mirrored HTTP headers, typed and cacheable results.
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey();
});
afterAll(() => server.close());

/** A well-formed 2026-07-28 request; `headers` override the mirrored ones. */
function modern(method: string, params: Record<string, unknown> = {}, options: { headers?: Record<string, string>; meta?: object; id?: unknown } = {}) {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return postMcp(server, { jsonrpc: "2.0", id: options.id ?? 1, method, params: { ...params, _meta: options.meta ?? modernMeta() } }, {
    key,
    headers: { ...modernHeaders(method, name), ...options.headers },
  });
}

const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": { name: "broker-directory", version: expect.any(String) } };

describe("server/discover", () => {
  test("advertises versions, capabilities and instructions, with resultType and cache hints", async () => {
    const answer = await modern("server/discover");
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json).sort()).toEqual(["id", "jsonrpc", "result"]);
    expect(answer.json.result).toEqual({
      resultType: "complete",
      supportedVersions: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false }, prompts: { listChanged: false } },
      instructions: expect.any(String),
      ttlMs: expect.any(Number),
      cacheScope: "private",
      _meta: SERVER_INFO_META,
    });
  });

  test("without _meta it is a malformed modern request: 400 with -32602", async () => {
    const answer = await postMcp(server, { jsonrpc: "2.0", id: 2, method: "server/discover" }, { key, headers: modernHeaders("server/discover") });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ id: 2, error: { code: -32602 } });
  });
});

describe("version and header rules", () => {
  test("a version we do not serve is 400 with -32022 listing the supported ones", async () => {
    const answer = await modern("tools/list", {}, { meta: modernMeta("2099-01-01"), headers: { "MCP-Protocol-Version": "2099-01-01" } });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: -32022, data: { supported: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26"], requested: "2099-01-01" } });
  });

  test.each([
    ["a missing MCP-Protocol-Version", { "MCP-Protocol-Version": "" }],
    ["an MCP-Protocol-Version that differs from _meta", { "MCP-Protocol-Version": "2025-11-25" }],
    ["a missing Mcp-Method", { "Mcp-Method": "" }],
    ["an Mcp-Method that differs from the body", { "Mcp-Method": "tools/list" }],
    ["a missing Mcp-Name", { "Mcp-Name": "" }],
    ["an Mcp-Name that differs from params.name", { "Mcp-Name": "get_broker" }],
  ])("%s is 400 with -32020 HeaderMismatch", async (_case, headers) => {
    // An empty value in the table stands for "header absent": it is removed before sending.
    const sent = Object.fromEntries(Object.entries({ ...modernHeaders("tools/call", "search_brokers"), ...headers }).filter(([, v]) => v !== ""));
    const answer = await postMcp(
      server,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_brokers", arguments: {}, _meta: modernMeta() } },
      { key, headers: sent },
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32020, message: expect.stringMatching(/^Header mismatch: /) } });
  });

  test("an Mcp-Name in the base64 sentinel form is decoded before comparing", async () => {
    const uri = "broker://brokers/ünïcode";
    const encoded = `=?base64?${Buffer.from(uri).toString("base64")}?=`;
    const answer = await modern("resources/read", { uri }, { headers: { "Mcp-Name": encoded } });
    expect(answer.status).toBe(200);
    expect(answer.json.error.code).toBe(-32602); // past the header check: the broker does not exist
  });

  test("_meta without clientCapabilities is 400 with -32602", async () => {
    const { "io.modelcontextprotocol/clientCapabilities": _dropped, ...meta } = modernMeta();
    const answer = await modern("tools/list", {}, { meta });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe(-32602);
    expect(answer.json.error.message).toContain("clientCapabilities");
  });

  test("a method this revision does not have (ping, initialize) is 404 with -32601", async () => {
    for (const method of ["ping", "initialize", "foo/bar"]) {
      const answer = await modern(method);
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ id: 1, error: { code: -32601 } });
    }
  });
});

describe("results", () => {
  test("tools/list carries resultType, ttlMs, cacheScope and serverInfo", async () => {
    const { result } = (await modern("tools/list")).json;
    expect(result.tools).toHaveLength(6);
    expect(result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "private", _meta: SERVER_INFO_META });
  });

  test("tools/call carries resultType but no cache hints", async () => {
    const { result } = (await modern("tools/call", { name: "search_brokers", arguments: { limit: 1 } })).json;
    expect(result.resultType).toBe("complete");
    expect(result.structuredContent.data).toHaveLength(1);
    expect(result.ttlMs).toBeUndefined();
    expect(result.cacheScope).toBeUndefined();
  });

  test("resources/read streams the directory with the modern fields after it", async () => {
    const { result } = (await modern("resources/read", { uri: "broker://directory" })).json;
    expect(result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "private" });
    const directory = JSON.parse(result.contents[0].text);
    expect(directory.brokers.length).toBe(directory.total);
  });

  test("an unknown resource is -32602 (not -32002) with the URI", async () => {
    const answer = await modern("resources/read", { uri: "broker://nothing" });
    expect(answer.status).toBe(200);
    expect(answer.json.error).toMatchObject({ code: -32602, data: { uri: "broker://nothing" } });
  });

  test("notifications need no headers and get 202", async () => {
    const answer = await postMcp(server, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { key, headers: { "MCP-Protocol-Version": MODERN } });
    expect(answer.status).toBe(202);
  });
});
