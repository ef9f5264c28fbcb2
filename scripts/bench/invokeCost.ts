/**
 * What the door into a procedure costs in process: callProcedure (src/router/invokeProcedure.ts,
 * REST's and MCP's door) against tRPC's own createCaller, on real procedures of a real app (the
 * demo directory in a temp SQLite file), in ns per call. Then, to put the difference in
 * proportion, a whole REST request to the same procedures over loopback HTTP (sequential
 * fetches from this process: no wrk, so the figure includes the client's own cost and is an
 * upper bound of the server's). Rounds alternate the ways so the machine's drift falls on all.
 *
 *   bun scripts/bench/invokeCost.ts [--rounds 9] [--calls 4000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startApp } from "../../src/app.ts";
import { SCOPES } from "../../src/auth/scopes.ts";
import { createLogger } from "../../src/log.ts";
import { createCaller } from "../../src/router/appRouter.ts";
import { callProcedure, procedureFacts, type ProcedurePath } from "../../src/router/procedureCatalog.ts";
import type { Context } from "../../src/router/trpc.ts";
import { median } from "./median.ts";

const { values } = parseArgs({ options: { rounds: { type: "string" }, calls: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 9);
const CALLS = Number(values.calls ?? 4000);

interface Case {
  name: string;
  path: ProcedurePath;
  input: unknown;
  /** The REST path whose every request runs the procedure (directory reads are answered from REST's response cache instead, so they have none). */
  rest?: string;
}

const dir = mkdtempSync(join(tmpdir(), "invoke-cost-"));
const app = await startApp({ databasePath: join(dir, "directory.db"), port: 0, hostname: "127.0.0.1", demo: true, logger: createLogger("silent") });
try {
  const key = (await app.services.keys.create({ workspace: "bench", scopes: [...SCOPES], rateLimitPerMinute: 1_000_000 }, app.services.now())).key;
  const principal = { keyId: "key_bench", workspaceId: "ws_bench", scopes: new Set(SCOPES), origins: null };
  const ctx: Context = { services: app.services, principal, surface: "rest", requestId: "req_bench", baseUrl: app.url };
  const slug = (app.services.brokers.search({}, 1, 1).items[0] as { slug: string }).slug;

  const cases: Case[] = [
    { name: "carriers.list (no input, small answer)", path: "carriers.list", input: undefined, rest: "/api/v1/carriers" },
    { name: "leads.list (workspace data)", path: "leads.list", input: { limit: "20" }, rest: "/api/v1/leads?limit=20" },
    { name: "brokers.get (one broker)", path: "brokers.get", input: { slug } },
    { name: "brokers.search (q, facets, 20 rows)", path: "brokers.search", input: { q: "insurance", facets: "province", limit: "20" } },
  ];

  const rows: Record<string, string | number>[] = [];
  for (const c of cases) {
    const parsed = procedureFacts(c.path).input.parse(c.input);
    const viaCaller = callerOf(ctx, c.path);
    const ways: Record<string, () => Promise<unknown>> = {
      "callProcedure (as REST: input parsed once)": () => callProcedure(ctx, c.path, c.input, parsed),
      "callProcedure (raw input)": () => callProcedure(ctx, c.path, c.input),
      "createCaller (a caller per request)": () => callerOf(ctx, c.path)(c.input),
      "createCaller (one caller reused)": () => viaCaller(c.input),
    };
    const samples = new Map<string, number[]>(Object.keys(ways).map((name) => [name, []]));
    for (const run of Object.values(ways)) await timeCalls(run, CALLS); // warm-up: JIT, caches
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(ways)) samples.get(name)!.push(await timeCalls(run, CALLS));
    }
    const row: Record<string, string | number> = { procedure: c.name };
    for (const [name, ns] of samples) row[name] = Math.round(median(ns));
    row["REST request over loopback"] = c.rest ? Math.round(median(await timeRequests(c.rest, key))) : "cached";
    rows.push(row);
  }
  console.log(`ns per call, median of ${ROUNDS} rounds of ${CALLS} calls (Bun ${Bun.version})`);
  console.table(rows);
} finally {
  await app.stop(1_000);
  rmSync(dir, { recursive: true, force: true });
}

/** ns per sequential GET of `path` with the bench key, one figure per round. */
async function timeRequests(path: string, key: string): Promise<number[]> {
  const get = () => fetch(app.url + path, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());
  await timeCalls(get, 300);
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await timeCalls(get, Math.max(100, CALLS / 10)));
  return rounds;
}

/** tRPC's caller for the procedure at `path`, walked from a fresh caller as the console does. */
function callerOf(ctx: Context, path: ProcedurePath): (input: unknown) => Promise<unknown> {
  let target: unknown = createCaller(ctx);
  for (const segment of path.split(".")) target = (target as Record<string, unknown>)[segment];
  return target as (input: unknown) => Promise<unknown>;
}

/** Mean ns per call of `calls` sequential awaited calls. */
async function timeCalls(run: () => Promise<unknown>, calls: number): Promise<number> {
  const start = Bun.nanoseconds();
  for (let i = 0; i < calls; i++) await run();
  return (Bun.nanoseconds() - start) / calls;
}
