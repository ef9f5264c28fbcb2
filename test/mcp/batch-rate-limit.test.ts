/**
 * A JSON-RPC batch pays the rate limit per message, as /trpc pays per call: past the key's
 * budget each further message gets the rate-limit error (-31429), and nothing it asked for
 * happens. A read of broker://directory costs more than one unit.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DIRECTORY_READ_UNITS } from "../../src/adapters/mcp/directoryResource.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { postMcp } from "./mcpSupport.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const BATCH_HEADERS = { "MCP-Protocol-Version": "2025-03-26" };
const leadCount = () => server.countRows("leads");

function createLead(id: number) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "create_lead", arguments: { name: "Marie Tremblay", email: `m${id}@example.ca`, phone: "(416) 555-0199", insuranceType: "Auto" } },
  };
}

test("a batch of 20 create_lead calls with a 5/min key makes 5 leads; the other 15 get -31429", async () => {
  const key = await server.createKey({ workspace: "batch", rateLimitPerMinute: 5 });
  const before = await leadCount();
  const answer = await postMcp(server, Array.from({ length: 20 }, (_, i) => createLead(i + 1)), { key, headers: BATCH_HEADERS });
  expect(answer.status).toBe(200);
  const results = answer.json as { id: number; result?: { isError?: boolean }; error?: { code: number; message: string; data: { retryAfterSeconds: number } } }[];
  expect(results.length).toBe(20);
  const done = results.filter((r) => r.result && !r.result.isError);
  const refused = results.filter((r) => r.error);
  expect(done.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  expect(refused.length).toBe(15);
  for (const r of refused) {
    expect(r.error!.code).toBe(-31429);
    expect(r.error!.message).toContain("Rate limit of 5 requests per minute exceeded");
    expect(r.error!.data.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  }
  expect((await leadCount()) - before).toBe(5);
  expect(answer.headers.get("ratelimit-remaining")).toBe("0");
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

  // The key is spent: the next request is refused at the door.
  const next = await postMcp(server, createLead(99), { key });
  expect(next.status).toBe(429);
  expect(next.json.error.code).toBe(-31429);
});

test("notifications and invalid entries of a batch cost nothing", async () => {
  const key = await server.createKey({ workspace: "batch", rateLimitPerMinute: 10 });
  const answer = await postMcp(
    server,
    [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }, { nonsense: true }, { jsonrpc: "2.0", id: 2, method: "ping" }],
    { key, headers: BATCH_HEADERS },
  );
  expect(answer.status).toBe(200);
  expect(answer.headers.get("ratelimit-remaining")).toBe("8");
});

test(`a broker://directory read costs ${DIRECTORY_READ_UNITS} units; with less left it is refused with 429`, async () => {
  const key = await server.createKey({ workspace: "batch", rateLimitPerMinute: 15 });
  const read = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "broker://directory" } };
  const first = await postMcp(server, read, { key });
  expect(first.status).toBe(200);
  expect(first.headers.get("ratelimit-remaining")).toBe(String(15 - DIRECTORY_READ_UNITS));
  expect(JSON.parse(first.json.result.contents[0].text).total).toBeGreaterThan(0);

  const second = await postMcp(server, read, { key });
  expect(second.status).toBe(429);
  expect(second.json).toMatchObject({ id: 1, error: { code: -31429 } });
  expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  // A refused read spends nothing: the one unit admission took is all that was counted.
  expect(second.headers.get("ratelimit-remaining")).toBe(String(15 - DIRECTORY_READ_UNITS - 1));
});

test("20 directory reads in one batch: one is served, the others are refused (one directory per HTTP request)", async () => {
  const key = await server.createKey({ workspace: "batch", rateLimitPerMinute: 1_000 });
  const reads = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "resources/read", params: { uri: "broker://directory" } }));
  const answer = await postMcp(server, reads, { key, headers: BATCH_HEADERS });
  expect(answer.status).toBe(200);
  const results = answer.json as { id: number; result?: unknown; error?: { code: number; message: string } }[];
  expect(results.filter((r) => r.result).map((r) => r.id)).toEqual([1]);
  const refused = results.filter((r) => r.error);
  expect(refused.length).toBe(19);
  for (const r of refused) expect(r.error).toMatchObject({ code: -32600, message: expect.stringContaining("once per HTTP request") });
  // Charged: admission's unit, the read's other units, and one unit per further message of the batch.
  expect(answer.headers.get("ratelimit-remaining")).toBe(String(1_000 - DIRECTORY_READ_UNITS - 19));
});

test("a key smaller than the read's cost can still read the directory once a minute", async () => {
  const key = await server.createKey({ workspace: "batch", rateLimitPerMinute: 3 });
  const read = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "broker://directory" } };
  const answer = await postMcp(server, read, { key });
  expect(answer.status).toBe(200);
  expect(answer.headers.get("ratelimit-remaining")).toBe("0");
});
