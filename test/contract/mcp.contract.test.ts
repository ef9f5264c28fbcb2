import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUTO_QUOTE, postMcp } from "../mcp/mcpSupport.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import * as spec from "./specFields.ts";

/**
 * The MCP endpoint (spec 4.6) against the field tables: tools/list names and argument
 * schemas, and every tool's structuredContent, over raw JSON-RPC as a client sends it.
 */
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

type Json = Record<string, unknown>;
let nextId = 1;
async function rpc(method: string, params?: Json): Promise<Json> {
  const answer = await postMcp(server, { jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) }, { key });
  expect(answer.status).toBe(200);
  const body = answer.json as { result?: Json; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result!;
}
async function callTool(name: string, args: Json): Promise<Json> {
  const result = await rpc("tools/call", { name, arguments: args });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as Json;
}
const { expectContract } = spec;
const records = (value: unknown) => value as Json[];

describe("tools/list", () => {
  test("has the six tools of 4.6, each with name, description and an object inputSchema with properties", async () => {
    const { tools } = (await rpc("tools/list")) as { tools: Json[] };
    expect(tools.map((t) => t.name).sort()).toEqual([...spec.MCP_TOOLS].sort());
    for (const tool of tools) {
      expect(typeof tool.description).toBe("string");
      const schema = tool.inputSchema as Json;
      expect(schema.type).toBe("object");
      expect(typeof schema.properties).toBe("object");
    }
  });

  test.each([
    ["search_brokers", spec.SEARCH_BROKERS_ARGS],
    ["create_lead", spec.LEAD],
  ] as const)("%s takes the spec's arguments with the spec's types", async (name, table) => {
    const { tools } = (await rpc("tools/list")) as { tools: Json[] };
    const properties = (tools.find((t) => t.name === name)!.inputSchema as Json).properties as Record<string, Json>;
    for (const [argument, type] of Object.entries(table)) {
      expect({ argument, type: properties[argument]?.type }).toEqual({ argument, type: spec.jsonSchemaTypeOf(type) });
    }
    if (name === "search_brokers") expect(properties.limit!.default).toBe(20);
  });

  test("get_reviews takes the broker's id as a string (the `id` search returns)", async () => {
    const { tools } = (await rpc("tools/list")) as { tools: Json[] };
    const properties = (tools.find((t) => t.name === "get_reviews")!.inputSchema as Json).properties as Record<string, Json>;
    expect(properties.brokerId!.type).toBe("string");
  });
});

describe("tools/call structuredContent", () => {
  test("search_brokers: broker list items (2.1) and pagination (2.4)", async () => {
    const result = await callTool("search_brokers", { province: "ON", limit: 5 });
    expectContract(result, spec.PAGED, "result");
    expectContract(result.pagination, spec.PAGINATION, "result.pagination");
    for (const [i, item] of records(result.data).entries()) expectContract(item, spec.BROKER_LIST_ITEM, `result.data[${i}]`);
  });

  test("get_broker: a broker detail (2.2); get_reviews: reviews (2.3) by the same id", async () => {
    const found = records((await callTool("search_brokers", { query: "assurances", limit: 10 })).data);
    const reviewed = found.find((b) => (b.reviewCount as number) > 0) ?? found[0]!;
    const detail = await callTool("get_broker", { slug: reviewed.slug as string });
    expectContract(detail, spec.BROKER_DETAIL, "get_broker");
    expectContract(detail.rating, spec.BROKER_RATING, "get_broker.rating");
    for (const office of records(detail.locations)) expectContract(office, spec.BROKER_LOCATION, "get_broker.locations[]");
    expect(detail.id).toBe(reviewed.id as string);
    const reviews = await callTool("get_reviews", { brokerId: reviewed.id as string, limit: 3 });
    expectContract(reviews, spec.PAGED, "get_reviews");
    for (const review of records(reviews.data)) expectContract(review, spec.REVIEW, "get_reviews.data[]");
  });

  test("get_quote: a quote result (2.5); create_lead: the lead fields (2.7) as strings", async () => {
    const quote = await callTool("get_quote", AUTO_QUOTE);
    expectContract(quote, spec.QUOTE_RESULT, "get_quote");
    for (const offer of records(quote.quotes)) expectContract(offer, spec.QUOTE_OFFER, "get_quote.quotes[]");
    const lead = await callTool("create_lead", { name: "Li Wei", email: "li@example.com", phone: "6045550123", insuranceType: "Auto", notes: "Evenings" });
    expectContract(lead, spec.LEAD, "create_lead");
  });

  test("compare_policies compares two offers side by side", async () => {
    const quote = await callTool("get_quote", AUTO_QUOTE);
    const [a, b] = records(quote.quotes);
    const comparison = await callTool("compare_policies", {
      policyA: { quoteId: quote.quoteId as string, carrier: a!.carrier as string },
      policyB: { quoteId: quote.quoteId as string, carrier: b!.carrier as string },
    });
    expect(Object.keys(comparison)).toEqual(expect.arrayContaining(["policyA", "policyB"]));
  });
});

describe("resources", () => {
  test("resources/list names broker://directory and broker://carriers; the carriers resource lists 30", async () => {
    const { resources } = (await rpc("resources/list")) as { resources: Json[] };
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([...spec.MCP_RESOURCES]));
    const { contents } = (await rpc("resources/read", { uri: "broker://carriers" })) as { contents: { text: string }[] };
    expect((JSON.parse(contents[0]!.text) as { data: unknown[] }).data).toHaveLength(30);
  });

  test("broker://directory holds brokers with the detail fields (2.2)", async () => {
    const { contents } = (await rpc("resources/read", { uri: "broker://directory" })) as { contents: { text: string }[] };
    const directory = JSON.parse(contents[0]!.text) as { brokers: Json[] };
    for (const broker of directory.brokers.slice(0, 50)) expectContract(broker, spec.BROKER_DETAIL, "directory.brokers[]");
  });
});
