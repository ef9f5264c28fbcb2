import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, expect, test } from "bun:test";
import superjson from "superjson";
import type { AppRouter } from "broker-directory"; // the package's own export, as an integrator imports it
import { createLogger } from "../../src/log.ts";
import { insertBroker } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const logLines: string[] = [];
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("info", (line) => logLines.push(line)) } });
  key = await server.createKey();
});
afterAll(() => server.close());

function client(apiKey: string | undefined, batch = true) {
  const options = {
    url: `${server.url}/trpc`,
    transformer: superjson,
    headers: () => (apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
  };
  return createTRPCClient<AppRouter>({ links: [batch ? httpBatchLink(options) : httpLink(options)] });
}

async function failure(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) return error as TRPCClientError<AppRouter>;
    throw error;
  }
  throw new Error("expected the call to fail");
}

test("a query with a key returns typed data", async () => {
  const result = await client(key).brokers.search.query({ province: "ON", limit: 2 });
  expect(result.data.length).toBe(2);
  expect(result.data.every((b) => b.province === "ON")).toBe(true);
  expect(result.pagination).toMatchObject({ page: 1, limit: 2 });
  const detail = await client(key).brokers.get.query({ slug: result.data[0]!.slug });
  expect(detail.slug).toBe(result.data[0]!.slug);
});

test("without a key the call fails UNAUTHORIZED (HTTP 401) with the gate's message", async () => {
  const error = await failure(client(undefined, false).brokers.search.query({}));
  expect(error.data?.code).toBe("UNAUTHORIZED");
  expect(error.data?.httpStatus).toBe(401);
  expect(error.message).toBe("Missing API key. Send it in the header 'Authorization: Bearer brk_…'.");

  const raw = await fetch(`${server.url}/trpc/brokers.search`);
  expect(raw.status).toBe(401);
  expect(raw.headers.get("www-authenticate")).toContain("Bearer");
});

test("a revoked key and an embed key are refused like on REST", async () => {
  const revoked = await server.createKey();
  const id = (await server.app.services.keys.list()).find((k) => revoked.startsWith(k.displayPrefix))!.id;
  await server.app.services.keys.revoke(id, Date.now());
  expect((await failure(client(revoked).brokers.search.query({}))).data?.code).toBe("UNAUTHORIZED");

  const embed = await server.createKey({ origins: ["https://partner.example"] });
  const error = await failure(client(embed).brokers.search.query({}));
  expect(error.data?.code).toBe("FORBIDDEN");
  expect(error.data?.httpStatus).toBe(403);
  expect(error.message).toContain("browser embed key");
});

test("invalid input is BAD_REQUEST with a safe message and per-field issues, no stack", async () => {
  const error = await failure(client(key).brokers.search.query({ limit: 1000 } as never));
  expect(error.data?.code).toBe("BAD_REQUEST");
  expect(error.data?.httpStatus).toBe(400);
  expect(error.message).toBe("limit: must be a whole number from 1 to 100 (got 1000)");
  expect(error.data?.issues).toEqual([{ path: "limit", message: "must be a whole number from 1 to 100 (got 1000)" }]);
  expect(JSON.stringify(error.shape)).not.toContain("stack");
});

test("an unknown broker is NOT_FOUND with the procedure's message", async () => {
  const error = await failure(client(key).brokers.get.query({ slug: "no-such-broker" }));
  expect(error.data?.code).toBe("NOT_FOUND");
  expect(error.message).toBe('No published broker has the slug "no-such-broker".');
});

test("an internal failure reaches the client as the generic message; the detail goes only to the log", async () => {
  // A row the output schema rejects (unknown province code) makes the procedure fail on our side.
  insertBroker(server.app.services.db, { name: "Broken Row Ltd", slug: "broken-row", province: "ZZ", city: "Nowhere" });
  const error = await failure(client(key, false).brokers.get.query({ slug: "broken-row" }));
  expect(error.data?.code).toBe("INTERNAL_SERVER_ERROR");
  expect(error.data?.httpStatus).toBe(500);
  expect(error.message).toBe("Internal server error. The failure was logged; retry later or contact the operator.");
  const serialized = JSON.stringify(error.shape);
  expect(serialized).not.toContain("ZZ");
  expect(serialized).not.toContain("validation");
  expect(serialized).not.toContain(".ts:");
  const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === "procedure failed" && l.procedure === "brokers.get");
  expect(logged).toMatchObject({ level: "error", route: "/trpc/brokers.get" });
});

test("each call of a batch counts against the key's rate limit", async () => {
  const limited = await server.createKey({ rateLimitPerMinute: 3 });
  const headers = { Authorization: `Bearer ${limited}` };
  const input = encodeURIComponent(JSON.stringify({ 0: { json: { limit: 1 } }, 1: { json: { limit: 1 } } }));
  const first = await fetch(`${server.url}/trpc/brokers.search,brokers.search?batch=1&input=${input}`, { headers });
  expect(first.status).toBe(200);
  expect(first.headers.get("ratelimit-remaining")).toBe("1");
  const second = await fetch(`${server.url}/trpc/brokers.search,brokers.search?batch=1&input=${input}`, { headers });
  expect(second.status).toBe(429);
  expect(second.headers.get("retry-after")).toBeTruthy();
  const body = (await second.json()) as { json?: unknown }[] | { error: unknown };
  expect(JSON.stringify(body)).toContain("TOO_MANY_REQUESTS");
});

test("a batch of more than 10 calls is refused", async () => {
  const paths = Array.from({ length: 11 }, () => "brokers.search").join(",");
  const input = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i, { json: {} }]))));
  const res = await fetch(`${server.url}/trpc/${paths}?batch=1&input=${input}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(400);
});

test("an unknown procedure is NOT_FOUND and logged under a fixed route label", async () => {
  const res = await fetch(`${server.url}/trpc/admin.dropEverything`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(404);
  const line = logLines.map((l) => JSON.parse(l)).findLast((l) => l.msg === "request");
  expect(line.route).toBe("/trpc/(unknown)");
});
