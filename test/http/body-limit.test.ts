/**
 * The 64 KiB body limit holds on every surface even when the body is sent chunked (no
 * Content-Length to check up front): bytes are counted while they are read.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MCP_HEADERS } from "../mcp/mcpSupport.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let embedKey: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ workspace: "body-limit", rateLimitPerMinute: 10_000 });
  embedKey = await server.createKey({ workspace: "body-limit", origins: ["https://partner.example"], rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

const lead = (notes: string) => ({ name: "Marie Tremblay", email: "marie@example.ca", phone: "(416) 555-0199", insuranceType: "Auto", notes });

/** A body sent with Transfer-Encoding: chunked, in 16 KiB pieces. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 16 * 1024));
      at += 16 * 1024;
    },
  });
}

async function postChunked(path: string, text: string, headers: Record<string, string>): Promise<Response> {
  return fetch(server.url + path, {
    method: "POST",
    body: chunked(text),
    // @ts-expect-error -- `duplex` is required by fetch for streamed request bodies; Bun's types omit it
    duplex: "half",
    headers: { "Content-Type": "application/json", ...headers },
  });
}

const leadCount = () => server.countRows("leads");
const big = "n".repeat(900 * 1024);

const surfaces = [
  ["REST", "/api/v1/leads", () => JSON.stringify(lead(big)), () => ({ Authorization: `Bearer ${key}` })],
  ["embed", "/api/v1/embed/leads", () => JSON.stringify(lead(big)), () => ({ Authorization: `Bearer ${embedKey}`, Origin: "https://partner.example" })],
  [
    "MCP",
    "/mcp",
    () => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_lead", arguments: lead(big) } }),
    () => ({ ...MCP_HEADERS, Authorization: `Bearer ${key}` }),
  ],
  ["tRPC", "/trpc/leads.create", () => JSON.stringify({ json: lead(big) }), () => ({ Authorization: `Bearer ${key}` })],
] as const;

test.each(surfaces)("%s: a 900 KB chunked body is refused with 413 and nothing is stored", async (_name, path, body, headers) => {
  const before = await leadCount();
  const res = await postChunked(path, body(), headers());
  const text = await res.text();
  expect(res.status, text).toBe(413);
  expect(text).toContain("64 KiB");
  expect(await leadCount()).toBe(before);
});

test("tRPC: a small chunked body is read and the call succeeds", async () => {
  const res = await postChunked("/trpc/leads.create", JSON.stringify({ json: lead("call after 5 pm") }), { Authorization: `Bearer ${key}` });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { data: { json: { name: string } } } };
  expect(body.result.data.json.name).toBe("Marie Tremblay");
});
