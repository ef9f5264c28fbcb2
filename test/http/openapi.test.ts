import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { restRoutes } from "../../src/adapters/rest/restRoutes.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }>; $ref?: string }>;
};
type Document = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

let server: TestServer;
let document: Document;
let response: Response;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
  response = await server.request("/api/v1/openapi.json");
  document = (await response.json()) as Document;
});
afterAll(() => server.close());

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

test("GET /api/v1/openapi.json is public JSON", () => {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/json");
});

test("the document is valid OpenAPI 3.1 and every $ref resolves", async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
  expect(() => validator.resolveRefs()).not.toThrow();
  expect(JSON.stringify(document)).not.toContain("#/$defs/");
});

test("every route of the REST table is documented with its method, scope and path parameters", () => {
  expect(restRoutes.length).toBeGreaterThan(0);
  for (const route of restRoutes) {
    const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    expect(operation, `${route.method} ${route.path}`).toBeDefined();
    expect(operation!.security).toEqual([{ bearerAuth: [route.scope] }]);
    const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const documented = (operation!.parameters ?? []).filter((p) => p.in === "path");
    expect(documented.map((p) => p.name).sort()).toEqual([...pathParams].sort() as string[]);
    expect(documented.every((p) => p.required)).toBe(true);
    if (route.body) expect(operation!.requestBody?.content["application/json"]?.schema).toBeDefined();
    const success = operation!.responses[String(route.status ?? 200)];
    expect(success?.content?.[route.envelope === "csv" ? "text/csv" : "application/json"]?.schema).toBeDefined();
  }
  const documentedCount = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
  expect(documentedCount).toBe(restRoutes.length);
});

test("query parameters come from the input schema with their bounds", () => {
  const search = document.paths["/api/v1/brokers"]!.get!;
  const names = search.parameters!.filter((p) => p.in === "query").map((p) => p.name);
  expect(names).toEqual(expect.arrayContaining(["q", "province", "city", "insuranceType", "page", "limit"]));
  const limit = search.parameters!.find((p) => p.name === "limit")!;
  expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
});

test("errors share one schema and the bearer scheme lists every scope", () => {
  expect(document.components.schemas!.Error).toMatchObject({ required: ["error", "code", "requestId", "docs"], properties: { error: { type: "string" }, code: { type: "string" } } });
  expect(document.paths["/api/v1/brokers"]!.get!.responses["401"]).toEqual({ $ref: "#/components/responses/Error401" });
  const scheme = document.components.securitySchemes!.bearerAuth as { type: string; scheme: string; description: string };
  expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
  for (const scope of ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"]) expect(scheme.description).toContain(scope);
});

test("servers names the origin the client used", () => {
  expect(document.servers).toEqual([{ url: server.url }]);
});

test("PUBLIC_URL replaces the request's origin in servers", async () => {
  const proxied = await startTestServer({ demo: false, app: { publicUrl: "https://brokers.example.ca" } });
  try {
    const doc = (await (await proxied.request("/api/v1/openapi.json")).json()) as Document;
    expect(doc.servers).toEqual([{ url: "https://brokers.example.ca" }]);
  } finally {
    await proxied.close();
  }
});
