import packageJson from "../../../package.json" with { type: "json" };
import { SCOPE_DESCRIPTIONS, SCOPES } from "../../auth/scopes.ts";
import { ERROR_CODES, type ErrorCode } from "../../schemas/errorCodes.ts";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeySchema } from "../../schemas/idempotencyKey.ts";
import { toJsonSchema } from "../../schemas/jsonSchema.ts";
import { statusOf } from "../errorVocabulary.ts";
import { MAX_BODY_BYTES } from "../http/readJsonBody.ts";
import type { RestRoute } from "../rest/restRoute.ts";
import { toOpenApiSchema, type JsonSchema } from "./jsonSchema.ts";

export type OpenApiDocument = JsonSchema & { openapi: "3.1.0"; paths: Record<string, Record<string, JsonSchema>> };

const ERROR_RESPONSES: Record<string, { description: string }> = {
  "401": { description: "Missing, malformed, unknown, revoked or expired API key" },
  "403": { description: "The key lacks the route's scope, an embed key is used off its surface or origins, or a key would give more than it holds" },
  "404": { description: "Nothing has that identifier" },
  "413": { description: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB` },
  "415": { description: "The body is not sent as application/json" },
  "422": { description: "Invalid input: `error` says what to fix, `issues` lists each field" },
  "409": { description: "The change conflicts with the workspace's keys" },
  "429": { description: "Too many requests (the key's rate limit, or downloads or uploads in progress); retry after Retry-After seconds" },
  "500": { description: "A fault of ours; the detail is in the server log under the request id" },
  "503": { description: "The database cannot answer or store now; nothing was saved; retry after Retry-After seconds" },
};

/** Codes no /api/v1 operation gives: the console's, /metrics' and /demo's, and MCP's Accept check. */
const OUTSIDE_API_ROUTES: readonly ErrorCode[] = ["session_required", "csrf_token_invalid", "host_not_allowed", "local_only", "invalid_metrics_token", "not_acceptable"];

/** The codes an operation's error response of this status may carry. */
function codesOfStatus(status: string): ErrorCode[] {
  return ERROR_CODES.filter((code) => String(statusOf(code)) === status && !OUTSIDE_API_ROUTES.includes(code));
}

const { $schema: _dialect, ...IDEMPOTENCY_KEY_SCHEMA } = toJsonSchema(idempotencyKeySchema, { io: "input" }) as JsonSchema;
const REPLAYED_HEADER = {
  [IDEMPOTENT_REPLAYED_HEADER]: { description: "`true` when this is the stored first answer to the request's Idempotency-Key (nothing new was created)", schema: { type: "string", enum: ["true"] } },
};

/** Procedures whose writes can conflict with the workspace's keys (409). */
const CONFLICTING_PROCEDURES = new Set(["keys.create", "keys.roll"]);

const RATE_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed per minute for this key", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window resets", schema: { type: "integer" } },
  "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
};

/**
 * The OpenAPI 3.1 description of /api/v1, written from the REST route table and the same zod
 * schemas the procedures validate with: a route added to the table is documented with no
 * further step. Path parameters come from `:name` segments, query parameters (routes without
 * a body) and request bodies (routes with one) from the input schema.
 */
export function buildOpenApiDocument(routes: readonly RestRoute[], serverUrl: string): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  const paths: OpenApiDocument["paths"] = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const operationId = uniqueId(operationIdFor(route), operationIds);
    (paths[path] ??= {})[route.method.toLowerCase()] = operationFor(route, operationId, schemas);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Broker Directory API",
      version: packageJson.version,
      summary: "Canada's insurance brokers: search, profiles, reviews, quotes and leads.",
      description:
        "Every request carries an API key: `Authorization: Bearer brk_…`. Each operation names the scope it needs. " +
        "Errors are JSON `{\"error\": \"…\", \"code\": \"…\", \"requestId\": \"…\", \"docs\": \"…\"}`, with `issues` (one per field) for invalid input: " +
        "branch on `code` (stable; every code is explained at /docs/manual/errors), show `error` (French with `Accept-Language: fr`). " +
        "Every response carries `X-Request-Id` (send your own, 1–128 of `A-Za-z0-9._:-`, to have it echoed).",
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "brk_…",
          description:
            "An API key from `broker-directory keys create`. Scopes (a key created without --scopes holds all):\n\n" +
            SCOPES.map((s) => `- \`${s}\`: ${SCOPE_DESCRIPTIONS[s]}`).join("\n") +
            "\n\nKeys with an origins list are browser embed keys: they work only on /api/v1/embed/* from those origins.",
        },
      },
      headers: {
        "X-Request-Id": { description: "The request's id: yours when sane, else a new UUID; quote it when reporting a problem", schema: { type: "string" } },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, { description }]) => {
          const codes = codesOfStatus(status);
          return [
            `Error${status}`,
            {
              description: `${description}. \`code\`: ${codes.map((code) => `\`${code}\``).join(", ")}`,
              headers: status === "429" || status === "503" ? { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } : undefined,
              content: {
                "application/json": { schema: { allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", properties: { code: { enum: codes } } }] } },
              },
            },
          ];
        }),
      ),
    },
  };
}

const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error", "code", "requestId", "docs"],
  properties: {
    error: { type: "string", description: "What went wrong and how to fix it (in French when the request's Accept-Language prefers it)" },
    code: { type: "string", enum: ERROR_CODES, description: "What went wrong, as a stable identifier to branch on: never changes with the wording or the language" },
    requestId: { type: "string", description: "The request's id, also sent as X-Request-Id: quote it to the operator" },
    docs: { type: "string", description: "Where the manual explains the code and what to do, e.g. /docs/manual/errors#rate_limited" },
    issues: {
      type: "array",
      description: "For invalid input: one entry per problem",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: { type: "string", description: 'Dot-joined field path, e.g. "details.driverAge" ("" for the whole input)' },
          message: { type: "string" },
        },
      },
    },
  },
};

function operationFor(route: RestRoute, operationId: string, schemas: Record<string, JsonSchema>): JsonSchema {
  const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const input = toOpenApiSchema(route.input, "input", `${capitalize(operationId)}Input`, schemas);
  const output = toOpenApiSchema(route.output, "output", `${capitalize(operationId)}Output`, schemas);
  const hidden = new Set(route.hiddenInputs ?? []);
  const properties = Object.fromEntries(
    Object.entries((input.properties ?? {}) as Record<string, JsonSchema>).filter(([name]) => !hidden.has(name)),
  );
  const required = new Set((input.required ?? []) as string[]);

  const parameters: JsonSchema[] = pathParams.map((name) => parameter(name, "path", true, properties[name] ?? { type: "string" }));
  let requestBody: JsonSchema | undefined;
  if (route.body) {
    const bodyProperties = Object.fromEntries(Object.entries(properties).filter(([name]) => !pathParams.includes(name)));
    const body = input.properties ? { ...input, properties: bodyProperties, required: [...required].filter((n) => !pathParams.includes(n)) } : input;
    requestBody = { required: route.body !== "optional", content: { "application/json": { schema: body } } };
  } else {
    for (const [name, schema] of Object.entries(properties)) {
      if (!pathParams.includes(name)) parameters.push(parameter(name, "query", required.has(name), schema));
    }
  }

  // The key's rules are the schema's (one declaration); its answer says when it is a replay.
  if (route.idempotent) parameters.push(parameter(IDEMPOTENCY_KEY_HEADER, "header", false, IDEMPOTENCY_KEY_SCHEMA));
  const status = String(route.status ?? 200);
  const errors = ["401", "403", "422", "429", "500", "503"];
  if (pathParams.length > 0 || route.body) errors.push("404");
  if (route.body) errors.push("413", "415");
  if (CONFLICTING_PROCEDURES.has(route.procedure)) errors.push("409");
  const embedNote = route.surface === "embed"
    ? " Callable from a browser with an embed key (origins list) from one of its origins; answers CORS preflight."
    : "";
  return {
    operationId,
    summary: route.summary,
    description: `Requires the \`${route.scope}\` scope.${embedNote}`,
    tags: [tagOf(route)],
    security: [{ bearerAuth: [route.scope] }],
    "x-scope": route.scope,
    "x-surface": route.surface,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [status]: {
        description: route.summary,
        headers: route.idempotent ? { ...RATE_HEADERS, ...REPLAYED_HEADER } : RATE_HEADERS,
        content:
          route.envelope === "csv"
            ? { "text/csv": { schema: { type: "string", description: "RFC 4180 CSV, UTF-8 with a byte-order mark" } } }
            : {
                "application/json": {
                  schema: route.envelope === "data" ? { type: "object", required: ["data"], properties: { data: output } } : output,
                },
              },
      },
      ...Object.fromEntries(errors.sort().map((code) => [code, { $ref: `#/components/responses/Error${code}` }])),
    },
  };
}

function parameter(name: string, where: "path" | "query" | "header", required: boolean, schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return { name, in: where, required, ...(typeof description === "string" ? { description } : {}), schema: rest };
}

/** GET /api/v1/brokers/:slug → getBrokersBySlug; POST /api/v1/embed/quotes → postEmbedQuotes. */
function operationIdFor(route: RestRoute): string {
  const words = route.path
    .replace(/^\/api\/v1\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") ? `By${capitalize(segment.slice(1))}` : capitalize(camel(segment))));
  return route.method.toLowerCase() + words.join("");
}

function uniqueId(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}${n}`;
  taken.add(candidate);
  return candidate;
}

function tagOf(route: RestRoute): string {
  return route.path.replace(/^\/api\/v1\/?/, "").split("/")[0] || "api";
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
// Runs of separators are folded first: `[-_.]+([a-zA-Z0-9])` would rescan a run from each position.
const camel = (s: string) => s.replace(/[-_.]+/g, "-").replace(/-([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
