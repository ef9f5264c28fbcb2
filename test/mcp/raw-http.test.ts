import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { postMcp, type RawAnswer } from "./mcpSupport.ts";

/**
 * The Streamable HTTP transport and JSON-RPC rules of the 2025 revisions, byte by byte, over
 * raw HTTP: the cases of mcp-notes §6 that break real clients when a hand-written server
 * gets them wrong.
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey();
});
afterAll(() => server.close());

const post = (body: unknown, headers: Record<string, string> = {}) => postMcp(server, body, { key, headers });
const request = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
const initialize = (protocolVersion: string, id: unknown = 1) =>
  post(request(id, "initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } }));

function expectEnvelope(answer: RawAnswer, id: unknown, kind: "result" | "error") {
  expect(answer.headers.get("content-type")).toStartWith("application/json");
  expect(Object.keys(answer.json).sort()).toEqual(["id", "jsonrpc", kind].sort());
  expect(answer.json.jsonrpc).toBe("2.0");
  expect(answer.json.id).toBe(id);
}

function expectAccepted(answer: RawAnswer) {
  expect(answer.status).toBe(202);
  expect(answer.text).toBe("");
}

function expectRpcError(answer: RawAnswer, status: number, code: number, id: unknown = null) {
  expect(answer.status).toBe(status);
  expectEnvelope(answer, id, "error");
  expect(answer.json.error.code).toBe(code);
  expect(answer.json.error.message).toBeString();
}

describe("initialize and version negotiation", () => {
  test("id 0 is a request: 200 JSON, id exactly 0, our latest version, no session id", async () => {
    const answer = await initialize("2025-11-25", 0);
    expect(answer.status).toBe(200);
    expectEnvelope(answer, 0, "result");
    expect(answer.json.result).toMatchObject({
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "broker-directory", version: expect.any(String) },
      instructions: expect.any(String),
    });
    expect(answer.headers.get("mcp-session-id")).toBeNull();
  });

  test.each(["2025-06-18", "2025-03-26"])("a client asking for %s gets it back", async (version) => {
    expect((await initialize(version)).json.result.protocolVersion).toBe(version);
  });

  test.each(["1999-01-01", "2024-11-05", "2026-07-28"])("a client asking for %s gets our latest handshake version, not an echo", async (version) => {
    expect((await initialize(version)).json.result.protocolVersion).toBe("2025-11-25");
  });

  test("initialize without protocolVersion is invalid params, in a 200", async () => {
    expectRpcError(await post(request(3, "initialize", {})), 200, -32602, 3);
  });
});

describe("notifications and responses", () => {
  test.each([
    ["notifications/initialized", { jsonrpc: "2.0", method: "notifications/initialized" }],
    ["notifications/cancelled", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }],
    ["an unknown notification", { jsonrpc: "2.0", method: "notifications/foo" }],
    ["a JSON-RPC response", { jsonrpc: "2.0", id: 5, result: {} }],
    ["a JSON-RPC error response", { jsonrpc: "2.0", id: 5, error: { code: -1, message: "no" } }],
  ])("%s is accepted with 202 and no body", async (_name, body) => {
    expectAccepted(await post(body));
  });

  test("a notification declaring a protocol version we do not speak is refused", async () => {
    const answer = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "MCP-Protocol-Version": "1900-01-01" });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe(-32022);
  });
});

describe("malformed bodies", () => {
  test("unparseable JSON is 400 with -32700 and id null", async () => {
    expectRpcError(await post("{"), 400, -32700);
    expectRpcError(await post(""), 400, -32700);
  });

  test.each([
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "ping" }],
    ["no jsonrpc member", { id: 1, method: "ping" }],
    ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }],
    ["a fractional id", { jsonrpc: "2.0", id: 1.5, method: "ping" }],
    ["an object id", { jsonrpc: "2.0", id: {}, method: "ping" }],
    ["a numeric method", { jsonrpc: "2.0", id: 1, method: 42 }],
    ["array params", { jsonrpc: "2.0", id: 1, method: "ping", params: [] }],
    ["neither method nor result", { jsonrpc: "2.0", id: 1 }],
    ["a bare string", "hello"],
    ["a number", 42],
  ])("%s is 400 with -32600 Invalid Request", async (_name, body) => {
    expectRpcError(await post(typeof body === "string" ? JSON.stringify(body) : body), 400, -32600);
  });

  test("Content-Type text/plain is 415; application/json with a charset is accepted", async () => {
    expect((await post(request(1, "ping"), { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await post(request(1, "ping"), { "Content-Type": "application/json; charset=utf-8" })).status).toBe(200);
  });

  test("a body over 64 KiB is 413", async () => {
    const answer = await post(request(1, "tools/call", { name: "search_brokers", arguments: { query: "x".repeat(70_000) } }));
    expect(answer.status).toBe(413);
  });

  test("Accept: text/html is 406; JSON alone or SSE alone is fine", async () => {
    expect((await post(request(1, "ping"), { Accept: "text/html" })).status).toBe(406);
    expect((await post(request(1, "ping"), { Accept: "application/json" })).status).toBe(200);
    expect((await post(request(1, "ping"), { Accept: "text/event-stream" })).status).toBe(200);
  });
});

describe("batches (part of MCP in 2025-03-26 only)", () => {
  test("an empty array is 400 with -32600", async () => {
    expectRpcError(await post([]), 400, -32600);
  });

  test("a batch under 2025-06-18 or later is 400 with -32600", async () => {
    const answer = await post([request(1, "ping"), request(2, "ping")], { "MCP-Protocol-Version": "2025-06-18" });
    expectRpcError(answer, 400, -32600);
    expect(answer.json.error.message).toContain("since 2025-06-18");
  });

  test("a 2025-03-26 batch (no version header) is answered as an array, one answer per request", async () => {
    const answer = await post([request(1, "ping"), { jsonrpc: "2.0", method: "notifications/initialized" }, request("b", "foo/bar"), { jsonrpc: "1.0" }]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: "b", error: { code: -32601, message: expect.any(String) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } },
    ]);
  });

  test("a batch of notifications only is 202; initialize may not be batched", async () => {
    expectAccepted(await post([{ jsonrpc: "2.0", method: "notifications/initialized" }], { "MCP-Protocol-Version": "2025-03-26" }));
    const answer = await post([request(1, "initialize", { protocolVersion: "2025-03-26" })]);
    expect(answer.json[0].error.code).toBe(-32600);
  });
});

describe("HTTP methods and paths", () => {
  test.each(["GET", "DELETE", "PUT", "PATCH"])("%s is 405 with Allow: POST", async (method) => {
    const answer = await postMcp(server, undefined, { key, method, headers: { Accept: "text/event-stream" } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });

  test("/mcp/ is served the same, never redirected", async () => {
    const answer = await postMcp(server, request(1, "ping"), { key, path: "/mcp/" });
    expect(answer.status).toBe(200);
    expect(answer.json.result).toEqual({});
  });
});

describe("MCP-Protocol-Version header", () => {
  test("a supported version, or none (taken as 2025-03-26), is served", async () => {
    expect((await post(request(1, "tools/list"), { "MCP-Protocol-Version": "2025-11-25" })).status).toBe(200);
    expect((await post(request(1, "tools/list"))).status).toBe(200);
  });

  test("an unsupported version is 400 and lists the versions we speak", async () => {
    const answer = await post(request(9, "tools/list"), { "MCP-Protocol-Version": "1900-01-01" });
    expectRpcError(answer, 400, -32022, 9);
    expect(answer.json.error.data).toEqual({ supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "1900-01-01" });
  });
});

describe("envelopes and ids", () => {
  test("a string id is echoed as a string, an integer as a number", async () => {
    expectEnvelope(await post(request("abc", "ping")), "abc", "result");
    expectEnvelope(await post(request(7, "ping")), 7, "result");
  });

  test("ping answers exactly {}", async () => {
    expect((await post(request(1, "ping"))).json).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  test("20 concurrent tool calls each get their own answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(request(100 + i, "tools/call", { name: "search_brokers", arguments: { page: i + 1, limit: 1 } }))),
    );
    answers.forEach((answer, i) => {
      expectEnvelope(answer, 100 + i, "result");
      expect(answer.json.result.structuredContent.pagination.page).toBe(i + 1);
    });
  });
});

describe("methods", () => {
  test.each(["foo/bar", "completion/complete", "logging/setLevel", "resources/subscribe", "server/foo"])(
    "%s is 200 with -32601 and the id echoed",
    async (method) => {
      expectRpcError(await post(request(11, method, {})), 200, -32601, 11);
    },
  );

  test("tools/list: unique valid names, object schemas, one page", async () => {
    const { tools, nextCursor } = (await post(request(1, "tools/list"))).json.result;
    expect(nextCursor).toBeUndefined();
    const names = tools.map((t: { name: string }) => t.name);
    expect(new Set(names).size).toBe(6);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema.type).toBe("object");
      expect(tool.inputSchema.$schema).toBeUndefined();
    }
  });

  test("a cursor we never issued is -32602", async () => {
    expectRpcError(await post(request(2, "tools/list", { cursor: "garbage" })), 200, -32602, 2);
    expectRpcError(await post(request(2, "resources/list", { cursor: "garbage" })), 200, -32602, 2);
  });

  test("tools/call of an unknown tool is a -32602 error, not a result", async () => {
    const answer = await post(request(3, "tools/call", { name: "delete_everything", arguments: {} }));
    expectRpcError(answer, 200, -32602, 3);
    expect(answer.json.error.message).toBe('Unknown tool: "delete_everything". Available tools: search_brokers, get_broker, get_reviews, get_quote, compare_policies, create_lead.');
  });

  test("tools/call without a name, or with non-object arguments, is -32602", async () => {
    expectRpcError(await post(request(4, "tools/call", { arguments: {} })), 200, -32602, 4);
    expectRpcError(await post(request(4, "tools/call", { name: "search_brokers", arguments: [1] })), 200, -32602, 4);
  });

  test("arguments that break the tool's schema are a tool result with isError and a readable text", async () => {
    const answer = await post(request(5, "tools/call", { name: "search_brokers", arguments: { limit: 0, page: "two" } }));
    expectEnvelope(answer, 5, "result");
    expect(answer.json.result).toEqual({
      content: [{ type: "text", text: 'Invalid arguments for search_brokers: page: must be a whole number from 1 to 50,000 (got "two"); limit: must be a whole number from 1 to 100 (got 0).' }],
      isError: true,
      _meta: { "broker-directory/error": { code: "invalid_parameter", requestId: answer.headers.get("x-request-id"), docs: "/docs/manual/errors#invalid_parameter" } },
    });
  });

  test("tools/call with arguments omitted runs the tool with none", async () => {
    const answer = await post(request(6, "tools/call", { name: "search_brokers" }));
    expect(answer.json.result.structuredContent.pagination.limit).toBe(20);
  });

  test("resources/read of an unknown URI is -32002 with the URI, never empty contents", async () => {
    const answer = await post(request(7, "resources/read", { uri: "broker://nothing-here" }));
    expectRpcError(answer, 200, -32002, 7);
    expect(answer.json.error.data).toEqual({ uri: "broker://nothing-here", code: "not_found", requestId: answer.headers.get("x-request-id"), docs: "/docs/manual/errors#not_found" });
    expectRpcError(await post(request(8, "resources/read", {})), 200, -32602, 8);
  });

  test("prompts/get of an unknown prompt is -32602", async () => {
    expectRpcError(await post(request(9, "prompts/get", { name: "nope" })), 200, -32602, 9);
  });
});
