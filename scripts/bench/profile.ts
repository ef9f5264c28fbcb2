/**
 * `bun scripts/bench/profile.ts --scenario detail --brokers 100000 [--seconds 8] [--seed-cache DIR]`:
 * one bench scenario against `bun --cpu-prof src/main.ts serve`, then the functions that took
 * the most self time in the server's CPU profile. For finding where a scenario's time goes
 * before optimising it (the manual's performance page, "Profiling a scenario"); not part of `bun run bench`.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO } from "./appProcess.ts";
import { prepareScenario } from "./scenarioSetup.ts";
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
const ready = prepareScenario({ scenarioId: values.scenario, brokers: values.brokers, seedCache: values["seed-cache"], prefix: "profile" });
const { scenario } = ready;
// BUN_JSC_* (the engine's options), MEMORY_TARGET_MB and LOG_LEVEL of this shell reach the server: for comparing settings.
const options = { db: ready.db, dir: ready.work, scenario, seconds: Number(values.seconds), env: ready.env };
const run = values.plain ? undefined : await profiledRun(options);
const result = run?.result ?? (await sourceServerRun(options)).result;
console.log(`${scenario.label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`);
// The profile stays, for reading further.
await ready.dispose({ keepWork: run !== undefined });
if (!run) process.exit(0);

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
