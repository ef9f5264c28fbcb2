import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { startTestServer, type TestServer } from "../support/server.ts";
import type { Scope } from "../../src/auth/scopes.ts";
import { AUTO_QUOTE } from "./mcpSupport.ts";

/**
 * The official TypeScript SDK client (v1, what Claude Desktop, Cursor and the Inspector are
 * built on) against the real server over HTTP: every operation must pass its strict schemas.
 */
let server: TestServer;
let client: Client;
let transport: StreamableHTTPClientTransport;
const transportErrors: Error[] = [];

async function connect(key: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const t = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  const c = new Client({ name: "sdk-client-test", version: "1.0.0" });
  c.onerror = (error) => transportErrors.push(error);
  await c.connect(t);
  return { client: c, transport: t };
}

async function keyWith(scopes: Scope[]) {
  return (await connect(await server.createKey({ scopes }))).client;
}

type ToolAnswer = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: any };
const call = (name: string, args: Record<string, unknown>, c: Client = client) => c.callTool({ name, arguments: args }) as Promise<ToolAnswer>;

function errorText(result: ToolAnswer): string {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content.map((block) => block.text).join("\n");
}

beforeAll(async () => {
  server = await startTestServer();
  ({ client, transport } = await connect(await server.createKey()));
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("connecting", () => {
  test("initialize negotiates 2025-11-25 and reports who we are and what we offer", () => {
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()).toMatchObject({ name: "broker-directory", version: expect.any(String) });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
    });
    expect(client.getInstructions()).toContain("search_brokers");
  });

  test("ping answers an empty result", async () => {
    expect(await client.ping()).toEqual({});
  });
});

describe("tools/list", () => {
  test("lists the six tools with object schemas, titles, descriptions and boolean hints", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["compare_policies", "create_lead", "get_broker", "get_quote", "get_reviews", "search_brokers"]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(80);
      for (const hint of Object.values(tool.annotations ?? {}).filter((v) => typeof v !== "string")) expect(typeof hint).toBe("boolean");
    }
  });

  test("schemas come from the procedures: search_brokers takes query and bounds limit at 100", async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search_brokers")!;
    const properties = search.inputSchema.properties as Record<string, any>;
    expect(Object.keys(properties).sort()).toEqual(
      ["city", "facets", "insuranceType", "language", "limit", "minRating", "near", "page", "province", "query", "radiusKm", "sort", "specialty", "verified"],
    );
    expect(properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(properties.sort).toMatchObject({ enum: ["name", "rating", "reviews", "distance", "relevance"], default: "name" });
    expect(properties.query.description).toContain("name or description");
  });

  test("read tools are read-only; create_lead and get_quote are not, and create_lead is not idempotent", async () => {
    const hints = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.annotations]));
    for (const name of ["search_brokers", "get_broker", "get_reviews"]) expect(hints[name]?.readOnlyHint).toBe(true);
    expect(hints.create_lead).toMatchObject({ readOnlyHint: false, idempotentHint: false, destructiveHint: false });
    expect(hints.get_quote?.readOnlyHint).toBe(false);
  });
});

describe("read tools", () => {
  test("search_brokers returns {data, pagination} as structuredContent and the same JSON as text", async () => {
    const result = await call("search_brokers", { province: "Ontario", limit: 3 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data.length).toBe(3);
    expect(result.structuredContent.pagination).toMatchObject({ page: 1, limit: 3 });
    for (const broker of result.structuredContent.data) expect(broker.province).toBeDefined();
    expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  });

  test("search_brokers maps query onto the text search", async () => {
    const first = (await call("search_brokers", { limit: 1 })).structuredContent.data[0];
    const found = await call("search_brokers", { query: first.name });
    expect(found.structuredContent.data.map((b: { slug: string }) => b.slug)).toContain(first.slug);
  });

  test("search_brokers with a limit above 100 or an unknown argument is a tool error naming the field", async () => {
    expect(errorText(await call("search_brokers", { limit: 500 }))).toContain("limit: must be a whole number from 1 to 100");
    expect(errorText(await call("search_brokers", { q: "maple" }))).toContain("q: is not a known field");
    expect(errorText(await call("search_brokers", { province: "Atlantis" }))).toContain("province");
  });

  test("get_broker returns the profile; an unknown slug is a tool error", async () => {
    const slug = (await call("search_brokers", { limit: 1 })).structuredContent.data[0].slug;
    const result = await call("get_broker", { slug });
    expect(result.structuredContent).toMatchObject({ slug, locations: expect.any(Array), rating: expect.any(Object) });
    expect(errorText(await call("get_broker", { slug: "no-such-broker" }))).toBe('No published broker has the slug "no-such-broker".');
    expect(errorText(await call("get_broker", {}))).toContain("slug: is required");
  });

  test("get_reviews by slug and by brokerId give the same page", async () => {
    const broker = (await call("search_brokers", { limit: 100 })).structuredContent.data.find((b: { reviewCount: number }) => b.reviewCount > 2);
    const bySlug = await call("get_reviews", { slug: broker.slug, limit: 2 });
    const byId = await call("get_reviews", { brokerId: broker.id, limit: 2 });
    expect(bySlug.structuredContent.data.length).toBe(2);
    expect(bySlug.structuredContent.pagination.total).toBe(broker.reviewCount);
    expect(byId.structuredContent).toEqual(bySlug.structuredContent);
  });

  test("get_reviews needs exactly one of brokerId and slug, and a broker that exists", async () => {
    expect(errorText(await call("get_reviews", {}))).toBe("Invalid arguments for get_reviews: Give exactly one of brokerId or slug to say whose reviews you want.");
    expect(errorText(await call("get_reviews", { brokerId: "1", slug: "x" }))).toContain("Give exactly one of brokerId or slug");
    expect(errorText(await call("get_reviews", { brokerId: 1 }))).toContain("brokerId: must be text");
    for (const id of ["99999999", "no-such-id", "-1", "9".repeat(40)]) {
      expect(errorText(await call("get_reviews", { brokerId: id }))).toStartWith(`No published broker has the id ${JSON.stringify(id)}.`);
    }
    expect(errorText(await call("get_reviews", { slug: "no-such-broker" }))).toBe('No published broker has the slug "no-such-broker".');
  });
});

describe("quote, compare and lead tools", () => {
  test("get_quote prices and stores a quote; compare_policies compares two of its offers", async () => {
    const quote = await call("get_quote", AUTO_QUOTE);
    expect(quote.isError).toBeFalsy();
    const { quoteId, quotes } = quote.structuredContent;
    expect(quoteId).toStartWith("qt_");
    expect(quotes.length).toBeGreaterThanOrEqual(3);

    const comparison = await call("compare_policies", {
      policyA: { quoteId, carrier: quotes[0].carrierSlug },
      policyB: { quoteId, carrier: quotes[1].carrier },
    });
    expect(comparison.isError).toBeFalsy();
    expect(comparison.structuredContent.policyA.carrier).toBe(quotes[0].carrier);
    expect(comparison.structuredContent.differences.cheaper).toMatch(/policyA|same/);
    expect(comparison.structuredContent.summary).toBeString();
  });

  test("get_quote with a missing detail or an unsupported line is a tool error an agent can act on", async () => {
    const { driverAge: _omitted, ...details } = AUTO_QUOTE.details;
    expect(errorText(await call("get_quote", { ...AUTO_QUOTE, details }))).toContain("details.driverAge: is required");
    expect(errorText(await call("get_quote", { ...AUTO_QUOTE, insuranceType: "Spaceship" }))).toContain("Auto, Home, Condo, Tenant, Life, Travel");
  });

  test("compare_policies with an unknown quote is a tool error", async () => {
    const text = errorText(await call("compare_policies", { policyA: { quoteId: "qt_nope", carrier: "x" }, policyB: { quoteId: "qt_nope", carrier: "y" } }));
    expect(text).toContain('policyA: no quote with the id "qt_nope" exists in this workspace.');
  });

  test("create_lead records a lead with source mcp and a normalised phone", async () => {
    const result = await call("create_lead", { name: "Marie Tremblay", email: "marie@example.com", phone: "(416) 555-0199", insuranceType: "auto" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ source: "mcp", phone: "+14165550199", status: "new", insuranceType: "Auto" });
  });

  test("create_lead with a bad phone is a tool error naming the field", async () => {
    const text = errorText(await call("create_lead", { name: "X", email: "x@example.com", phone: "12", insuranceType: "Auto" }));
    expect(text).toBe(
      "Invalid arguments for create_lead: phone: must have 10 digits (area code and number), optionally preceded by 1 or +1, e.g. (416) 555-0199 or +1 416 555 0199.",
    );
  });
});

describe("scopes", () => {
  test("a tool whose scope the key lacks is a tool error that names the scope", async () => {
    const limited = await keyWith(["brokers:read"]);
    expect(errorText(await call("get_reviews", { brokerId: "1" }, limited))).toBe("This API key lacks the reviews:read scope. Create a key that includes it.");
    expect(errorText(await call("create_lead", { name: "X", email: "x@example.com", phone: "4165550199", insuranceType: "Auto" }, limited))).toContain("leads:write");
    await limited.close();
  });

  test("get_reviews needs only reviews:read, by id or by slug (the embed reviews endpoint's rule)", async () => {
    const [broker] = (await call("search_brokers", { limit: 1 })).structuredContent.data;
    const reviewsOnly = await keyWith(["reviews:read"]);
    const bySlug = await call("get_reviews", { slug: broker.slug }, reviewsOnly);
    const byId = await call("get_reviews", { brokerId: broker.id }, reviewsOnly);
    expect(bySlug.isError).toBeFalsy();
    expect(bySlug.structuredContent).toEqual(byId.structuredContent);
    await reviewsOnly.close();
  });

  test("reading the directory without brokers:read is an error naming the scope", async () => {
    const reviewsOnly = await keyWith(["reviews:read"]);
    const error = await reviewsOnly.readResource({ uri: "broker://directory" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("lacks the brokers:read scope");
    await reviewsOnly.close();
  });
});

describe("resources", () => {
  test("lists the directory (with its size) and the carriers, and the broker template", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["broker://directory", "broker://carriers"]);
    expect(resources[0]!.description).toMatch(/\(\d+ now\).* (about )?\d+(\.\d)? [KM]B/);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: "broker://brokers/{slug}", name: "broker", mimeType: "application/json" })]);
  });

  test("broker://directory holds every published broker with offices and ratings, and its exact size once read", async () => {
    const { contents } = await client.readResource({ uri: "broker://directory" });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri: "broker://directory", mimeType: "application/json" });
    const text = (contents[0] as { text: string }).text;
    const directory = JSON.parse(text);
    const published = (await call("search_brokers", { limit: 1 })).structuredContent.pagination.total;
    expect(directory.total).toBe(published);
    expect(directory.brokers).toHaveLength(published);
    expect(new Set(directory.brokers.map((b: { id: number }) => b.id)).size).toBe(published);
    const sample = directory.brokers[0];
    expect(sample.locations.length).toBeGreaterThan(0);
    expect(sample.rating.distribution).toBeDefined();
    expect(sample).toEqual((await call("get_broker", { slug: sample.slug })).structuredContent);

    const listed = (await client.listResources()).resources[0]!;
    expect(listed.size).toBe(Buffer.byteLength(text));
  });

  test("broker://carriers lists the 30 carriers", async () => {
    const { contents } = await client.readResource({ uri: "broker://carriers" });
    const carriers = JSON.parse((contents[0] as { text: string }).text);
    expect(carriers.total).toBe(30);
    expect(carriers.data[0]).toMatchObject({ slug: expect.any(String), name: expect.any(String), lines: expect.any(Array), provinces: expect.any(Array) });
  });

  test("broker://brokers/{slug} reads one broker; an unknown slug is -32002 with the uri", async () => {
    const slug = (await call("search_brokers", { limit: 1 })).structuredContent.data[0].slug;
    const { contents } = await client.readResource({ uri: `broker://brokers/${slug}` });
    expect(JSON.parse((contents[0] as { text: string }).text).slug).toBe(slug);

    const error = await client.readResource({ uri: "broker://brokers/no-such-broker" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    expect((error as McpError).data).toMatchObject({ uri: "broker://brokers/no-such-broker", code: "broker_not_found" });
  });
});

describe("prompts", () => {
  test("find_broker renders a user message from the situation", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["find_broker"]);
    const prompt = await client.getPrompt({ name: "find_broker", arguments: { situation: "first car, new driver", province: "QC" } });
    expect(prompt.messages[0]!.role).toBe("user");
    expect((prompt.messages[0]!.content as { text: string }).text).toContain("first car, new driver");
    const error = await client.getPrompt({ name: "find_broker", arguments: {} }).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32602);
  });
});

test("no transport error was reported during the whole session", () => {
  expect(transportErrors).toEqual([]);
});
