import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import * as spec from "./specFields.ts";

/**
 * The published OpenAPI document describes the spec's fields with the spec's types: what a
 * client generator reads must agree with the contract, not only what the server sends.
 */
type Schema = Record<string, unknown>;
let server: TestServer;
let document: { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  document = (await (await server.request("/api/v1/openapi.json")).json()) as typeof document;
});
afterAll(() => server.close());

function resolve(schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  return resolve(document.components.schemas[ref.replace("#/components/schemas/", "")]!);
}

function responseSchema(path: string, method: string, status: string): Schema {
  const operation = document.paths[path]?.[method];
  expect(operation).toBeDefined();
  const response = (operation!.responses as Record<string, Schema>)[status]!;
  return resolve(((response.content as Record<string, Schema>)["application/json"]!).schema as Schema);
}

const property = (schema: Schema, name: string) => resolve(((resolve(schema).properties as Record<string, Schema>) ?? {})[name] ?? {});
const items = (schema: Schema) => resolve(resolve(schema).items as Schema);

/** Every spec field is a property whose JSON Schema type is the spec's type (never nullable). */
function expectFields(schema: Schema, table: spec.FieldTable, label: string) {
  const found = Object.fromEntries(Object.keys(table).map((name) => [name, property(schema, name).type ?? "missing or not one type"]));
  const wanted = Object.fromEntries(Object.entries(table).map(([name, type]) => [name, spec.jsonSchemaTypeOf(type)]));
  expect({ label, fields: found }).toEqual({ label, fields: wanted });
}

test("GET /brokers: list items (2.1) and pagination (2.4)", () => {
  const body = responseSchema("/api/v1/brokers", "get", "200");
  expectFields(body, spec.PAGED, "body");
  expectFields(items(property(body, "data")), spec.BROKER_LIST_ITEM, "data[]");
  expectFields(property(body, "pagination"), spec.PAGINATION, "pagination");
});

test("GET /brokers/{slug}: the broker detail (2.2), its rating and locations", () => {
  const detail = property(responseSchema("/api/v1/brokers/{slug}", "get", "200"), "data");
  expectFields(detail, spec.BROKER_DETAIL, "data");
  expectFields(property(detail, "rating"), spec.BROKER_RATING, "data.rating");
  expectFields(items(property(detail, "locations")), spec.BROKER_LOCATION, "data.locations[]");
});

test("GET /reviews/{brokerId}: reviews (2.3); the path parameter is a string", () => {
  const body = responseSchema("/api/v1/reviews/{brokerId}", "get", "200");
  expectFields(items(property(body, "data")), spec.REVIEW, "data[]");
  const parameters = document.paths["/api/v1/reviews/{brokerId}"]!.get!.parameters as Schema[];
  const brokerId = parameters.find((p) => p.name === "brokerId")!;
  expect(brokerId).toMatchObject({ in: "path", required: true, schema: { type: "string" } });
  expect(parameters.find((p) => p.name === "slug")).toBeUndefined();
});

test("POST /embed/quotes: the quote result (2.5); GET /embed/brokers: embed items (2.6) and total", () => {
  const quote = property(responseSchema("/api/v1/embed/quotes", "post", "201"), "data");
  expectFields(quote, spec.QUOTE_RESULT, "data");
  expectFields(items(property(quote, "quotes")), spec.QUOTE_OFFER, "data.quotes[]");
  const embed = responseSchema("/api/v1/embed/brokers", "get", "200");
  expectFields(embed, spec.EMBED_BROKERS, "body");
  expectFields(items(property(embed, "data")), spec.EMBED_BROKER_ITEM, "data[]");
});

test("POST /leads: a lead with the five string fields (2.7); errors are {error: string} (7)", () => {
  expectFields(property(responseSchema("/api/v1/leads", "post", "201"), "data"), spec.LEAD, "data");
  expectFields(document.components.schemas.Error!, spec.ERROR, "Error");
});

test("GET /brokers documents limit's default of 20 and maximum of 100 (spec 8)", () => {
  const parameters = document.paths["/api/v1/brokers"]!.get!.parameters as Schema[];
  expect(parameters.find((p) => p.name === "limit")!.schema).toMatchObject({ type: "integer", maximum: 100, default: 20 });
  expect(parameters.find((p) => p.name === "page")!.schema).toMatchObject({ type: "integer", minimum: 1, default: 1 });
});
