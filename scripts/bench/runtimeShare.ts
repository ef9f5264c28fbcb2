/**
 * `bun scripts/bench/runtimeShare.ts --scenario list [--brokers 1000] [--seconds 5] [--seed-cache DIR] [--out FILE]`:
 * where a scenario's server CPU goes *below* our code, beside the bare Bun.serve ceiling
 * answering the same list bytes. The CPU profile of profile.ts sees JavaScript frames only, and
 * puts most of a fast answer under "other (Bun's HTTP work…)"; this asks the kernel instead:
 * `perf record -e cpu-clock` on the server while wrk runs the scenario, sorted by object file
 * into the kernel (sockets, scheduling, page faults), Bun's machine code (its HTTP server,
 * JavaScriptCore's runtime and collector, libc) and JavaScript the engine compiled (ours and our
 * libraries'), each as microseconds of one request's server CPU; and, from the engine's GC log
 * (BUN_JSC_logGC=1), how often it collected and what its pauses cost a request.
 *
 * Needs perf(1) (Debian: linux-perf) and a kernel that lets it sample (software clock events
 * work in a VM). Not part of `bun run bench`. The manual's performance page reads its figures.
 */
import { statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, REPO, startProcess, stopProcess, type RunningProcess } from "./appProcess.ts";
import { cpuSnapshot, processCpuSeconds } from "./cpuUsage.ts";
import { median } from "./median.ts";
import { parseDsoReport, parseGcLog, type CodeKind } from "./runtimeShares.ts";
import { prepareScenario } from "./scenarioSetup.ts";
import { runWrk, type LoadRequest } from "./wrk.ts";

const { values } = parseArgs({
  options: {
    scenario: { type: "string", default: "list" },
    brokers: { type: "string", default: "1000" },
    seconds: { type: "string", default: "5" },
    "seed-cache": { type: "string", default: join(tmpdir(), "broker-directory-seed-cache") },
    out: { type: "string" },
  },
});
const perf = Bun.which("perf");
if (!perf) {
  console.error("runtimeShare.ts needs perf(1): apt-get install -y linux-perf");
  process.exit(2);
}
const seconds = Number(values.seconds);
const LIST_REQUEST: LoadRequest = { method: "GET", path: "/api/v1/brokers?province=ON&limit=20", headers: { Authorization: "Bearer x" } };

interface Share {
  requestsPerSecond: number;
  cpuMicrosPerRequest: number;
  /** Microseconds of one request's server CPU in each kind of code. */
  micros: Record<CodeKind, number>;
  collectionsPerSecond: { eden: number; full: number };
  medianPauseMs: number;
  pauseMicrosPerRequest: number;
}

/** Warm-up, then `seconds` of load with perf sampling the server and its GC log read over the same span. */
async function measure(running: RunningProcess, requests: LoadRequest[], gcLog: string, perfData: string): Promise<Share> {
  const pid = running.proc.pid;
  const load = { durationSeconds: seconds, connections: 32, threads: 1 };
  await runWrk(running.url, requests, { ...load, durationSeconds: 3 });
  const logFrom = statSync(gcLog).size;
  const before = cpuSnapshot(pid);
  const recording = Bun.spawn([perf!, "record", "-q", "-e", "cpu-clock", "-F", "999", "-p", String(pid), "-o", perfData, "--", "sleep", String(seconds)], { stdout: "ignore", stderr: "ignore" });
  const result = await runWrk(running.url, requests, load);
  await recording.exited;
  const after = cpuSnapshot(pid);
  const report = Bun.spawnSync([perf!, "report", "-i", perfData, "--stdio", "--no-children", "--sort", "dso"], { stdout: "pipe", stderr: "ignore" });
  const { shares } = parseDsoReport(report.stdout.toString());
  const collections = parseGcLog(await Bun.file(gcLog).slice(logFrom).text());
  const cpuMicrosPerRequest = (processCpuSeconds(before, after) * 1e6) / result.requests;
  const micros = { kernel: 0, runtime: 0, javascript: 0 };
  for (const kind of Object.keys(micros) as CodeKind[]) micros[kind] = round(shares[kind] * cpuMicrosPerRequest);
  return {
    requestsPerSecond: Math.round(result.requestsPerSecond),
    cpuMicrosPerRequest: round(cpuMicrosPerRequest),
    micros,
    collectionsPerSecond: { eden: round(collections.eden / result.seconds), full: round(collections.full / result.seconds) },
    medianPauseMs: collections.pausesMs.length === 0 ? 0 : round(median(collections.pausesMs), 3),
    pauseMicrosPerRequest: round((collections.pausesMs.reduce((sum, ms) => sum + ms, 0) * 1000) / result.requests),
  };
}

function round(value: number, digits = 1): number {
  return Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : 0;
}

/**
 * Starts `argv` with the engine's GC log on (its standard error, in a file), runs `before` once
 * it answers, measures `requests` against it and stops it.
 */
async function measureServer(name: string, argv: (port: number) => string[], env: Record<string, string>, requests: LoadRequest[], before?: (running: RunningProcess) => Promise<void>): Promise<Share> {
  const port = await freePort();
  const gcLog = join(ready.work, `${name}-gc.log`);
  const running = await startProcess(argv(port), { port, cwd: ready.work, logFile: join(ready.work, `${name}.log`), env: { ...env, BUN_JSC_logGC: "1" }, errorLogFile: gcLog });
  try {
    await before?.(running);
    return await measure(running, requests, gcLog, join(ready.work, `${name}.perf`));
  } finally {
    await stopProcess(running);
  }
}

const ready = prepareScenario({ scenarioId: values.scenario, brokers: values.brokers, seedCache: values["seed-cache"], prefix: "runtime-share" });
const bodyFile = join(ready.work, "ceiling-body.json");
let product: Share;
let ceiling: Share;
try {
  product = await measureServer(
    "product",
    (port) => [process.execPath, join(REPO, "src/main.ts"), "serve", "--db", ready.db, "--port", String(port), "--host", "127.0.0.1", "--no-demo"],
    ready.env,
    ready.scenario.requests,
    async (server) => {
      // The ceiling answers the product's own list bytes, as in `bun run bench`.
      const list = await fetch(server.url + LIST_REQUEST.path, { headers: { Authorization: `Bearer ${ready.key}` } });
      writeFileSync(bodyFile, new Uint8Array(await list.arrayBuffer()));
    },
  );
  ceiling = await measureServer("ceiling", (port) => [process.execPath, join(REPO, "scripts/bench/ceilingServer.ts"), bodyFile, String(port)], {}, [LIST_REQUEST]);
} finally {
  await ready.dispose({ keepWork: false });
}

const rows: [string, (share: Share) => string][] = [
  ["requests/s", (s) => s.requestsPerSecond.toLocaleString("en-CA")],
  ["server CPU, µs a request", (s) => String(s.cpuMicrosPerRequest)],
  ["… in the kernel", (s) => String(s.micros.kernel)],
  ["… in Bun's machine code (HTTP, engine runtime, collector, libc)", (s) => String(s.micros.runtime)],
  ["… in compiled JavaScript (ours and our libraries')", (s) => String(s.micros.javascript)],
  ["collections a second (eden / full)", (s) => `${s.collectionsPerSecond.eden} / ${s.collectionsPerSecond.full}`],
  ["median pause, ms", (s) => String(s.medianPauseMs)],
  ["pauses, µs a request", (s) => String(s.pauseMicrosPerRequest)],
];
console.log(`${ready.scenario.label} at ${Number(values.brokers).toLocaleString("en-CA")} brokers, ${seconds} s each (perf cpu-clock at 999 Hz):\n`);
console.log("| | product | ceiling |\n| --- | ---: | ---: |");
for (const [label, cell] of rows) console.log(`| ${label} | ${cell(product)} | ${cell(ceiling)} |`);
if (values.out) {
  writeFileSync(values.out, JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, scenario: ready.scenario.id, brokers: Number(values.brokers), seconds, product, ceiling }, null, 2) + "\n");
  console.log(`\nwritten to ${values.out}`);
}
