import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { createLogger } from "../../src/log.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * Random requests across every route and surface, seeded: a failure prints the seed and the
 * shrunk request, and `FUZZ_SEED=<seed> bun test test/fuzz` replays it. FUZZ_RUNS changes the count.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);

const errorLines: string[] = [];
let server: TestServer;
let keys: Record<"full" | "embed" | "reviewsOnly", string>;
let slug: string;
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("error", (line) => errorLines.push(line)) } });
  keys = {
    full: await server.createKey({ rateLimitPerMinute: 1_000_000 }),
    embed: await server.createKey({ origins: ["https://partner.example"], rateLimitPerMinute: 1_000_000 }),
    reviewsOnly: await server.createKey({ scopes: ["reviews:read"], rateLimitPerMinute: 1_000_000 }),
  };
  const list = (await (await server.request("/api/v1/brokers?limit=1", { key: keys.full })).json()) as { data: { slug: string }[] };
  slug = list.data[0]!.slug;
});
afterAll(() => server.close());

const nasty = fc.constantFrom("", " ", "-1", "0", "NaN", "1e309", "9007199254740993", "1.5", "%", "%zz", "%E0%A4%A", "%00", "..", "../..", "ü", "null", "[]", "{}", "<script>", "a@b.co", "brk_aaaaaaaaaaaaaaaa", "'; DROP TABLE brokers; --", "ON", "Québec", "LONG");
const value = fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.integer().map(String), fc.double().map(String));
const segment = fc.oneof(nasty, fc.string({ maxLength: 20 }).map(encodeURIComponent), fc.constant("SLUG"), fc.nat(2_000_000).map(String));

const pathTemplate = fc.constantFrom(
  "/api/v1/brokers",
  "/api/v1/brokers/:s",
  "/api/v1/reviews/:s",
  "/api/v1/carriers",
  "/api/v1/leads",
  "/api/v1/policies/compare",
  "/api/v1/embed/brokers",
  "/api/v1/embed/brokers/:s/photo.svg",
  "/api/v1/embed/reviews",
  "/api/v1/embed/quotes",
  "/api/v1/embed/quotes/:s",
  "/api/v1/embed/leads",
  "/api/v1/:s",
  "/api/v1/openapi.json",
  "/mcp",
  "/trpc/brokers.search",
  "/trpc/brokers.get",
  "/trpc/leads.create",
  "/trpc/brokers.search,reviews.list",
  "/trpc/:s",
  "/widget.js",
  "/demo",
  "/docs",
  "/healthz",
  "/readyz",
  "/metrics",
  "/.well-known/oauth-authorization-server",
  "/:s/:s",
);
const paramName = fc.constantFrom("q", "province", "city", "insuranceType", "page", "limit", "broker", "brokerId", "input", "batch", "key", "__proto__", "constructor", "a[]", "x");
const query = fc.array(fc.tuple(paramName, value), { maxLength: 6 }); // names repeat: duplicates

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const leadLike = fc.record(
  { name: value, email: value, phone: value, insuranceType: value, quoteId: value, brokerSlug: value, notes: value },
  { requiredKeys: [] },
);
const quoteLike = fc.record(
  {
    insuranceType: fc.constantFrom("Auto", "Home", "Tenant", "Life", "x"),
    province: value,
    postalCode: value,
    details: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ vehicleYear: fc.integer(), driverAge: fc.double(), contentsValue: fc.integer() })),
  },
  { requiredKeys: [] },
);
const rpc = fc.record({
  jsonrpc: fc.constantFrom("2.0", "1.0", 2),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)),
  method: fc.constantFrom("initialize", "tools/list", "tools/call", "resources/read", "resources/list", "prompts/get", "ping", "nope"),
  params: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({ name: fc.constantFrom("search_brokers", "get_broker", "get_reviews", "create_lead", "create_quote", "x"), arguments: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record({ uri: fc.constantFrom("broker://directory", "broker://x", "file:///etc/passwd") }),
  ),
});
const json = fc.oneof(fc.jsonValue({ maxDepth: 4 }), leadLike, quoteLike, rpc, fc.array(rpc, { maxLength: 4 }));
const body = fc.oneof(
  fc.constant(undefined),
  json.map((v) => JSON.stringify(v) ?? "null"),
  json.chain((v) => {
    const text = JSON.stringify(v) ?? "null";
    return fc.nat(text.length).map((n) => text.slice(0, n)); // truncated
  }),
  // Big bodies are named, not spelled out, so a failure report stays readable (see materialise).
  fc.constantFrom("DEEP_50", "DEEP_100000", "HUGE_70000", "\u0000\uFFFF", "not json", "\xff\xfe"),
);

/** Tokens the arbitraries use for text too long to print in a report. */
function materialise(text: string): string {
  if (text === "LONG") return "x".repeat(3_000);
  if (text === "DEEP_50") return deep(50);
  if (text === "DEEP_100000") return deep(100_000);
  if (text === "HUGE_70000") return `{"a":"${"x".repeat(70_000)}"}`;
  return text;
}

const authorization = fc.constantFrom<(k: typeof keys) => string | undefined>(
  () => undefined,
  (k) => `Bearer ${k.full}`,
  (k) => `Bearer ${k.embed}`,
  (k) => `Bearer ${k.reviewsOnly}`,
  (k) => `bearer   ${k.full}  `,
  (k) => `Bearer ${k.full}x`,
  () => "Bearer",
  () => "Bearer brk_",
  () => "Basic dXNlcjpwYXNz",
  () => `Bearer ${"a".repeat(3_000)}`,
);
const origin = fc.constantFrom(undefined, "https://partner.example", "null", "https://evil.example", "http://localhost", "javascript:alert(1)");
const host = fc.constantFrom(undefined, "evil.example", "a:99999999", "[::1]:1", "localhost", "xn--80ak6aa92e.com", "a\"b.example", "h.example:0");
const contentType = fc.constantFrom(undefined, "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded");
// PROPFIND: a registered method we serve nowhere. A token outside HTTP's registry (FOO) never
// reaches us: Bun 1.4 closes the connection first (test/http/methods-and-head.test.ts).
const method = fc.constantFrom("GET", "GET", "GET", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "PROPFIND");

const request = fc.record({ method, pathTemplate, segments: fc.array(segment, { minLength: 2, maxLength: 2 }), query, body, authorization, origin, host, contentType });
type FuzzRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

// A stack frame is "at name (where:line:column)": prose such as "at creation (…)" in the OpenAPI text is not one.
const LEAKS = [/\.ts:\d+/, /\bat [\w.<>]+ \([^)]*:\d+:\d+\)/, /SQLITE_/, /\bSELECT\b[^"]*\bFROM\b/, /node_modules/, /syntax error/i, /TypeError|RangeError|ReferenceError/];

function build(r: FuzzRequest): { url: string; init: RequestInit } {
  let i = 0;
  const path = r.pathTemplate.replace(/:s/g, () => {
    const s = r.segments[i++ % 2]!;
    return s === "SLUG" ? slug : materialise(s);
  });
  const search = r.query.map(([name, v]) => `${name}=${v.includes("%") ? v : encodeURIComponent(materialise(v))}`).join("&");
  const headers: Record<string, string> = {};
  const auth = r.authorization(keys);
  if (auth !== undefined) headers.Authorization = auth;
  if (r.origin) headers.Origin = r.origin;
  if (r.host) headers.Host = r.host;
  if (r.contentType) headers["Content-Type"] = r.contentType;
  if (path === "/mcp") headers.Accept = "application/json, text/event-stream";
  const hasBody = r.body !== undefined && !["GET", "HEAD", "OPTIONS"].includes(r.method);
  return { url: `${server.url}${path}${search ? `?${search}` : ""}`, init: { method: r.method, headers, body: hasBody ? materialise(r.body!) : undefined } };
}

async function send(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text() };
}

/** What an error answer must look like on each surface. */
function errorShapeProblem(path: string, status: number, text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON: ${text.slice(0, 120)}`;
  }
  const envelope = parsed as { error?: unknown };
  if (path.startsWith("/mcp")) {
    const rpcError = (e: unknown) => typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string";
    const items = Array.isArray(parsed) ? parsed : [parsed];
    return items.every((item) => typeof (item as { error?: unknown }).error === "string" || rpcError((item as { error?: unknown }).error) || "result" in (item as object))
      ? undefined
      : `an /mcp error that is not a JSON-RPC error: ${text.slice(0, 120)}`;
  }
  if (path.startsWith("/trpc")) {
    const items = Array.isArray(parsed) ? parsed : [parsed];
    return items.every((item) => typeof item === "object" && item !== null && ("error" in item || "result" in item))
      ? undefined
      : `a /trpc error outside tRPC's envelope: ${text.slice(0, 120)}`;
  }
  return typeof envelope.error === "string" ? undefined : `an error without {error}: ${text.slice(0, 120)}`;
}

test(`${RUNS} random requests across every surface: never a 5xx, errors in each surface's shape, no stack or SQL (seed ${SEED})`, async () => {
  console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} bun test test/fuzz)`);
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const { url, init } = build(r);
      const path = new URL(url).pathname;
      const res = await send(url, init);
      const text = res.text;
      const where = `${init.method} ${url.slice(server.url.length, server.url.length + 200)}`;
      expect(res.status, `${where} → ${res.status} ${text.slice(0, 200)}`).toBeLessThan(500);
      for (const leak of LEAKS) expect(leak.test(text) && !path.startsWith("/widget.js") && !path.startsWith("/docs") && !path.startsWith("/demo"), `${where} leaks ${leak}: ${text.slice(0, 300)}`).toBe(false);
      if (res.status >= 400 && init.method !== "HEAD") {
        expect(errorShapeProblem(path, res.status, text), where).toBeUndefined();
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  expect(errorLines).toEqual([]);
}, 120_000);
