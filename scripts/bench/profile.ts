/**
 * `bun scripts/bench/profile.ts --scenario detail --brokers 100000 [--seconds 8] [--seed-cache DIR]`:
 * one bench scenario against `bun --cpu-prof src/main.ts serve`, then the functions that took
 * the most self time in the server's CPU profile. For finding where a scenario's time goes
 * before optimising it (the manual's performance page, "Profiling a scenario"); not part of `bun run bench`.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { appCommand, REPO, runCli } from "./appProcess.ts";
import { buildScenarios, HOOKED_SCENARIOS, SCENARIO_IDS, type ScenarioId } from "./scenarios.ts";
import { ensureWrk } from "./wrk.ts";
import { stageLines, type CpuProfile } from "./profileStages.ts";
import { profiledRun, sourceServerRun } from "./profiledRun.ts";

const { values } = parseArgs({
  options: {
    scenario: { type: "string", default: "detail" },
    brokers: { type: "string", default: "100000" },
    seconds: { type: "string", default: "8" },
    "seed-cache": { type: "string", default: join(tmpdir(), "broker-directory-seed-cache") },
    top: { type: "string", default: "40" },
    // Only the throughput, without the profiler's cost: for quick before/after comparisons.
    plain: { type: "boolean", default: false },
  },
});
const scenarioId = values.scenario as ScenarioId;
if (!SCENARIO_IDS.includes(scenarioId)) throw new Error(`--scenario: one of ${SCENARIO_IDS.join(", ")}`);
ensureWrk();
const app = appCommand(true);
const work = mkdtempSync(join(tmpdir(), "broker-directory-profile-"));
mkdirSync(values["seed-cache"], { recursive: true });
const seeded = join(values["seed-cache"], `seed-${values.brokers}.db`);
if (!existsSync(seeded)) runCli(app, ["seed", "--db", seeded, "--brokers", values.brokers], work);
const db = join(work, "bench.db");
copyFileSync(seeded, db);
const key = runCli(app, ["keys", "create", "--db", db, "--workspace", "profile", "--rate-limit", "1000000", "--json"], work);
const secret = (JSON.parse(key) as { key: string }).key;
const keys = Object.fromEntries(SCENARIO_IDS.map((id) => [id, secret])) as Record<ScenarioId, string>;
const scenario = buildScenarios(db, keys).find((s) => s.id === scenarioId)!;
// As bench.ts does for (15): an endpoint wanting lead.created, answered at once in this process.
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(null, { status: 204 }) });
// Delivery off, as in the bench: (15) measures what a lead costs with its outbox rows, not the sending.
const hooksEnv = { WEBHOOKS_ALLOW_HTTP_LOOPBACK: "true", WEBHOOKS_DELIVERY: "false" };
if (HOOKED_SCENARIOS.includes(scenarioId)) {
  runCli(app, ["webhooks", "create", "--workspace", "profile", "--url", `http://127.0.0.1:${receiver.port}/hook`, "--events", "lead.created", "--db", db], work, hooksEnv);
}
const engineEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("BUN_JSC_"))) as Record<string, string>;
const options = { db, dir: work, scenario, seconds: Number(values.seconds), env: { ...hooksEnv, ...engineEnv } };
const run = values.plain ? undefined : await profiledRun(options);
const result = run?.result ?? (await sourceServerRun(options)).result;
console.log(`${scenario.label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`);
await receiver.stop(true);
// The database copy is as large as the seeded one (360 MB at 100,000 brokers): runs in a row
// filled this machine's disk before it was removed. The profile stays, for reading further.
for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
if (!run) {
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
const profile = run.profile as CpuProfile & { nodes: Node[] };
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byName = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const t = self.get(node.id) ?? 0;
  total += t;
  const where = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(REPO + "/", "").replace(/.*node_modules\//, "nm/")}:${node.callFrame.lineNumber + 1}`;
  byName.set(where, (byName.get(where) ?? 0) + t);
}
const rows = [...byName].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
for (const [where, t] of rows) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${where}`);
// Where a request's time goes, by stage.
console.log();
for (const line of stageLines(run.stages)) console.log(line);
console.log(`profile: ${run.profilePath}`);
