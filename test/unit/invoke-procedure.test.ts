import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Principal } from "../../src/auth/admitRequest.ts";
import type { Scope } from "../../src/auth/scopes.ts";
import { createLogger } from "../../src/log.ts";
import { createCaller } from "../../src/router/appRouter.ts";
import { callProcedure, procedureFacts, type ProcedurePath } from "../../src/router/procedureCatalog.ts";
import type { Context } from "../../src/router/trpc.ts";
import { createServices } from "../../src/services.ts";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { insertBroker } from "../support/directoryFixtures.ts";

// REST, MCP and the console run procedures through callProcedure (src/router/invokeProcedure.ts),
// a copy of tRPC's caller loop without its costs. It must answer and fail exactly as the caller
// does, and it may only meet the @trpc/server it was written against.
const dir = mkdtempSync(join(tmpdir(), "invoke-procedure-"));
const db = openDatabase(join(dir, "directory.db"));
migrate(db);
insertBroker(db, { name: "Maple Leaf Insurance", slug: "maple-leaf-insurance", province: "ON", city: "Toronto", languages: ["French"] });
insertBroker(db, { name: "Prairie Shield Brokers", slug: "prairie-shield-brokers", province: "AB", city: "Calgary" });
const services = createServices(db, createLogger("silent"));
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function contextFor(scopes: Scope[] | null): Context {
  const principal: Principal | null = scopes && { keyId: "key_test", workspaceId: "ws_test", scopes: new Set(scopes), origins: null };
  return { services, principal, surface: "rest", requestId: "req_test", baseUrl: "http://directory.test" };
}

async function outcome(run: () => Promise<unknown>) {
  try {
    return { value: await run() };
  } catch (error) {
    const e = error as Error & { code?: string; cause?: unknown };
    return { error: { name: e.name, code: e.code, message: e.message, cause: e.cause instanceof Error ? e.cause.message : e.cause } };
  }
}

/** Both ways of calling the procedure at `path`, with the same context and raw input. */
async function both(path: ProcedurePath, scopes: Scope[] | null, input: unknown) {
  const ctx = contextFor(scopes);
  let target: unknown = createCaller(ctx);
  for (const segment of path.split(".")) target = (target as Record<string, unknown>)[segment];
  const viaCaller = await outcome(() => (target as (input: unknown) => Promise<unknown>)(input));
  const viaInvoke = await outcome(() => callProcedure(ctx, path, input));
  return { viaCaller, viaInvoke };
}

const cases: [string, ProcedurePath, Scope[] | null, unknown][] = [
  ["a search with facets", "brokers.search", ["brokers:read"], { q: "maple", facets: "province,language", limit: "5" }],
  ["a search with no input", "brokers.search", ["brokers:read"], undefined],
  ["a broker by slug", "brokers.get", ["brokers:read"], { slug: "maple-leaf-insurance" }],
  ["an unknown slug (NOT_FOUND)", "brokers.get", ["brokers:read"], { slug: "no-such-broker" }],
  ["input its schema refuses", "brokers.search", ["brokers:read"], { limit: "0", province: "XX" }],
  ["a rule between parameters (sort=relevance without q)", "brokers.search", ["brokers:read"], { sort: "relevance" }],
  ["a key without the scope", "brokers.search", ["reviews:read"], {}],
  ["no principal at all", "brokers.search", null, {}],
  ["a write holding NUL", "leads.create", ["leads:write"], { name: "A\u0000B", email: "a@example.com" }],
  ["the carrier list (no input)", "carriers.list", ["brokers:read"], undefined],
];

for (const [name, path, scopes, input] of cases) {
  test(`callProcedure answers as tRPC's caller does: ${name}`, async () => {
    const { viaCaller, viaInvoke } = await both(path, scopes, input);
    expect(viaInvoke).toEqual(viaCaller);
  });
}

test("the comparison can fail: a refused call differs from an answered one", async () => {
  const refused = await both("brokers.search", ["reviews:read"], {});
  const answered = await both("brokers.search", ["brokers:read"], {});
  expect(refused.viaInvoke).toHaveProperty("error.code", "FORBIDDEN");
  expect(answered.viaInvoke).toHaveProperty("value.pagination.total", 2);
  expect(refused.viaInvoke).not.toEqual(answered.viaInvoke);
});

test("an input the adapter already parsed with the procedure's schema answers as the raw input does", async () => {
  const raw = { q: "maple", facets: "language", sort: "relevance", limit: "5" };
  const parsed = procedureFacts("brokers.search").input.parse(raw);
  const { viaCaller } = await both("brokers.search", ["brokers:read"], raw);
  const viaParsed = await outcome(() => callProcedure(contextFor(["brokers:read"]), "brokers.search", raw, parsed));
  expect(viaParsed).toEqual(viaCaller);
  expect(viaParsed).toHaveProperty("value.pagination.total", 1);
});

// callProcedure parses every input its procedure's schema accepts itself; an adapter may hand one over parsed too.
const parsedCases: [string, ProcedurePath, Scope[], Record<string, string>][] = [
  ["a broker by slug (trusted output)", "brokers.get", ["brokers:read"], { slug: "maple-leaf-insurance" }],
  ["an unknown slug (NOT_FOUND)", "brokers.get", ["brokers:read"], { slug: "no-such-broker" }],
  ["a search whose defaults the parse fills in", "brokers.search", ["brokers:read"], {}],
  // A parsed input skips the input check only: the scope is still checked, and refused.
  ["a key without the scope", "brokers.get", ["reviews:read"], { slug: "maple-leaf-insurance" }],
];

for (const [name, path, scopes, raw] of parsedCases) {
  test(`an input already parsed by the procedure's schema answers as the raw input does: ${name}`, async () => {
    const parsed = procedureFacts(path).input.safeParse(raw);
    expect(parsed.success).toBe(true);
    const { viaCaller } = await both(path, scopes, raw);
    const viaParsed = await outcome(() => callProcedure(contextFor(scopes), path, raw, parsed.data));
    expect(viaParsed).toEqual(viaCaller);
  });
}

test("@trpc/server is pinned to the exact version invokeProcedure mirrors, and that version is the one installed", async () => {
  const manifest = await Bun.file(new URL("../../package.json", import.meta.url)).json();
  const lock = await Bun.file(new URL("../../package-lock.json", import.meta.url)).json();
  const installed = (await import("@trpc/server/package.json", { with: { type: "json" } })).default.version;
  const pinned = manifest.dependencies["@trpc/server"];
  // An exact version, not a range: invokeProcedure copies internals a minor release may change.
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  expect(lock.packages[""].dependencies["@trpc/server"]).toBe(pinned);
  expect(lock.packages["node_modules/@trpc/server"].version).toBe(pinned);
  expect(installed).toBe(pinned);
  // The client's peer dependency names the server's exact version: both move together.
  expect(manifest.devDependencies["@trpc/client"]).toBe(pinned);
});
