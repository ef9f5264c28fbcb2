/**
 * `bun run bench`: a benchmark, not a test. For each directory size (default 1,000 and
 * 100,000 brokers) it seeds a fresh database, starts the server (the compiled executable
 * when dist/broker-directory exists, else `bun src/main.ts`), and drives each scenario of
 * scripts/bench/scenarios.ts with wrk on loopback, next to a bare Bun.serve answering the
 * same bytes as scenario 1 (the machine's ceiling). Prints a table and writes
 * scripts/bench/results/<date>-<brokers>.json.
 *
 *   bun run bench [--brokers 1000,100000] [--duration 5] [--repeat 3] [--warmup 2] [--connections 32]
 *                 [--threads 1] [--log-level info] [--source]
 *                 [--only list,detailHot] [--seed-cache DIR]
 *
 *   bun run bench --cluster 3 [--brokers 1000] [--duration 5] …  (one run a measurement)
 *     list, detail and search through HAProxy in front of 1, then N instances over one
 *     PostgreSQL and one Redis (throwaway, started like the tests'): scripts/bench/cluster.ts.
 *     Writes results/<date>-<brokers>-cluster.json.
 *
 *   bun run bench --replica-start [--brokers 1000,100000] [--rounds 3] [--seed-cache DIR]
 *     an instance over PostgreSQL from spawn to /readyz 200: its replica loaded whole (cold),
 *     then reused after a clean stop and after kill -9, a few brokers changed before each
 *     restart (scripts/bench/replicaStart.ts). Writes results/<date>-<brokers>-replica-start.json.
 *
 *   bun run bench --import [--brokers 100000] [--database-url postgres://…]
 *     the CLI's `import brokers` (a CSV, one row an office) then `import reviews` (NDJSON, 12 a
 *     broker on average) on a fresh database: seconds, rows/s and peak RSS of each
 *     (scripts/bench/importBench.ts). Writes results/<date>-<brokers>-import.json.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { printUsageIfAsked } from "./bench/usage.ts";
import { benchCluster } from "./bench/cluster.ts";
import { benchReplicaStart } from "./bench/replicaStart.ts";
import { benchImport, importLines } from "./bench/importBench.ts";
import { appCommand, freePort, peakRssBytes, REPO, runCli, startApp, startProcess, stopProcess, type AppCommand } from "./bench/appProcess.ts";
import { machineInfo, markdownTable, replicaStartLines, summaryLines, warnings, type BenchRecord, type Measured, type PeerRecord, type ReadFloorRecord, type ScenarioRecord } from "./bench/report.ts";
import { cpuShare, cpuSnapshot } from "./bench/cpuUsage.ts";
import { memoryOf, RssAnonSampler } from "./bench/processMemory.ts";
import { buildScenarios, HOOKED_SCENARIOS, SCENARIO_IDS, type Scenario, type ScenarioId } from "./bench/scenarios.ts";
import { measureLoggingCost } from "./bench/loggingCost.ts";
import { measureWebhookDrain } from "./bench/webhookDrain.ts";
import { measureLeadPathCost } from "./bench/leadPathCost.ts";
import { logOffset, serverTimesSince } from "./bench/serverTimes.ts";
import { serverWarnings } from "./bench/serverWarnings.ts";
import { ensureWrk, runWrk, type LoadRequest, type LoadSettings } from "./bench/wrk.ts";
import { medianRun } from "./bench/medianRun.ts";
import { medianBy } from "./bench/median.ts";
import { PEER_SCENARIOS, peerRequests, startPeer } from "./bench/peer.ts";
import { missStageLines, missStagesOf } from "./bench/missStages.ts";

const { values } = parseArgs({
  options: {
    brokers: { type: "string", default: "1000,100000" },
    duration: { type: "string", default: "5" },
    // Runs of each measurement, the median kept (issue 30's method: wrk -t1 -c32, 5 s, median of 3).
    repeat: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "32" },
    threads: { type: "string", default: "1" },
    "log-level": { type: "string", default: "info" },
    source: { type: "boolean", default: false },
    // A subset of scenarios (their ids) and a folder keeping seeded databases between runs:
    // for before/after comparisons while working, not for the published figures.
    only: { type: "string" },
    "seed-cache": { type: "string" },
    cluster: { type: "string" },
    "replica-start": { type: "boolean", default: false },
    import: { type: "boolean", default: false },
    "database-url": { type: "string" },
    rounds: { type: "string", default: "3" },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
await printUsageIfAsked(values.help, import.meta.path);

const positive = (text: string, name: string) => {
  const n = Number(text.replace(/_/g, ""));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of at least 1 (got ${JSON.stringify(text)})`);
  return n;
};
const brokerCounts = values.brokers.split(",").map((b) => positive(b.trim(), "brokers"));
const load: LoadSettings = {
  durationSeconds: positive(values.duration, "duration"),
  connections: positive(values.connections, "connections"),
  threads: positive(values.threads, "threads"),
};
const warmupSeconds = Number(values.warmup);
const repeat = positive(values.repeat, "repeat");
/** After the last scenario, how long the server is left quiet before its memory is read again (its idle collection runs within 2 s). */
const IDLE_SETTLE_MS = 2_500;
const logLevel = values["log-level"];
const onlyIds = values.only?.split(",").map((id) => id.trim());
const unknownIds = onlyIds?.filter((id) => !SCENARIO_IDS.includes(id as ScenarioId)) ?? [];
if (unknownIds.length > 0) throw new Error(`--only: unknown scenario ${unknownIds.join(", ")} (known: ${SCENARIO_IDS.join(", ")})`);

const wrkVersion = values.import ? "" : ensureWrk();
const app = appCommand(values.source);
console.log(`Benchmarking ${app.describe}${wrkVersion ? ` with ${wrkVersion}` : ""}`);
const workDir = mkdtempSync(join(tmpdir(), "broker-directory-bench-"));
const resultsDir = join(REPO, "scripts/bench/results");
mkdirSync(resultsDir, { recursive: true });

if (values.cluster) {
  try {
    const instances = positive(values.cluster, "cluster");
    const record = await benchCluster(app, { instances, brokers: brokerCounts[0]!, dir: workDir, load, warmupSeconds, logLevel });
    const file = join(resultsDir, `${record.date.slice(0, 10)}-${record.brokers}-cluster.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    console.log(`\nwrote ${file.slice(REPO.length + 1)}`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  process.exit(0);
}

if (values.import) {
  try {
    for (const brokers of values.brokers === "1000,100000" ? [100_000] : brokerCounts) {
      const dir = join(workDir, `import-${brokers}`);
      mkdirSync(dir);
      const record = await benchImport(app, { brokers, dir, databaseUrl: values["database-url"] });
      const file = join(resultsDir, `${record.date.slice(0, 10)}-${brokers}-import${record.database === "postgres" ? "-pg" : ""}.json`);
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
      console.log(`\n## Import of ${brokers.toLocaleString("en-CA")} brokers, ${record.date.slice(0, 10)}\n`);
      for (const line of importLines(record)) console.log(`- ${line}`);
      console.log(`\nwrote ${file.slice(REPO.length + 1)}`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  process.exit(0);
}

if (values["replica-start"]) {
  try {
    for (const brokers of brokerCounts) {
      const rounds = positive(values.rounds, "rounds");
      const record = await benchReplicaStart(app, { brokers, rounds, dir: join(workDir, `replica-start-${brokers}`), logLevel, seedCache: values["seed-cache"] });
      const file = join(resultsDir, `${record.date.slice(0, 10)}-${brokers}-replica-start.json`);
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
      console.log(`\n## Replica start at ${brokers.toLocaleString("en-CA")} brokers, ${record.date.slice(0, 10)}\n`);
      for (const line of replicaStartLines(record)) console.log(`- ${line}`);
      console.log(`\nwrote ${file.slice(REPO.length + 1)}`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  process.exit(0);
}

try {
  const demoStartup = await measureDemoStartup(app);
  console.log(`startup on the demo data: first start ${demoStartup.firstMs.toFixed(0)} ms, restart ${demoStartup.restartMs.toFixed(0)} ms`);
  for (const brokers of brokerCounts) {
    const record = await benchDirectory(app, brokers, demoStartup);
    const file = join(resultsDir, `${record.date.slice(0, 10)}-${brokers}.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    console.log(`\n## ${brokers.toLocaleString("en-CA")} brokers, ${record.date.slice(0, 10)}\n`);
    console.log(markdownTable(record));
    console.log();
    for (const line of summaryLines(record)) console.log(`- ${line}`);
    for (const line of missStageLines(record.missStages ?? [])) console.log(line);
    for (const line of warnings(record)) console.log(`! ${line}`);
    console.log(`\nwrote ${file.slice(REPO.length + 1)}`);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

/** exec → /healthz on the demo data: an empty database (first start), then restarts. */
async function measureDemoStartup(app: AppCommand) {
  const dir = join(workDir, "demo");
  mkdirSync(dir);
  const db = join(dir, "demo.db");
  const start = async () => {
    const running = await startApp(app, { db, port: await freePort(), cwd: dir, logFile: join(dir, "server.log"), demo: true, logLevel });
    await stopProcess(running);
    return running.startupMs;
  };
  const firstMs = await start();
  const restarts = [await start(), await start(), await start()].sort((a, b) => a - b);
  return { firstMs, restartMs: restarts[1]! };
}

async function benchDirectory(app: AppCommand, brokers: number, demoStartup: { firstMs: number; restartMs: number }): Promise<BenchRecord> {
  const dir = join(workDir, `n${brokers}`);
  mkdirSync(dir);
  const db = join(dir, "bench.db");
  console.log(`\nseeding ${brokers.toLocaleString("en-CA")} brokers…`);
  const seedStarted = performance.now();
  seedDatabase(app, brokers, db, dir);
  const seedSeconds = round((performance.now() - seedStarted) / 1000);
  const keys = Object.fromEntries(
    SCENARIO_IDS.map((id) => {
      // One key per scenario, each at the largest rate limit: a scenario never meets another's budget.
      const workspace = HOOKED_SCENARIOS.includes(id) ? "bench-hooks" : "bench";
      const out = runCli(app, ["keys", "create", "--workspace", workspace, "--name", id, "--rate-limit", "1000000", "--json", "--db", db], dir);
      return [id, JSON.parse(out).key as string];
    }),
  ) as Record<ScenarioId, string>;
  // The webhook receiver of scenario (15): answers at once, in this process, on loopback (which the
  // server is told to allow, as in development).
  let hooksReceived = 0;
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      hooksReceived++;
      return new Response(null, { status: 204 });
    },
  });
  // The server only writes the outbox, so (15) is the lead with its outbox rows; measureWebhookDrain
  // sends them afterwards from a second instance, for the delivery figure.
  const hooksEnv = { WEBHOOKS_ALLOW_HTTP_LOOPBACK: "true", WEBHOOKS_DELIVERY: "false" };
  runCli(app, ["webhooks", "create", "--workspace", "bench-hooks", "--url", `http://127.0.0.1:${receiver.port}/hook`, "--events", "lead.created", "--db", db], dir, hooksEnv);
  const directory = { brokers, ...directoryCounts(db), databaseBytes: fileBytes(db) + fileBytes(`${db}-wal`), seedSeconds };

  const execAt = performance.now();
  const server = await startApp(app, { db, port: await freePort(), cwd: dir, logFile: join(dir, "server.log"), demo: false, logLevel, env: hooksEnv });
  const firstSearchMs = (await firstAnsweredSearch(server.url, keys.search)) - execAt;
  try {
    const scenarios = buildScenarios(db, keys).filter((scenario, index) => index === 0 || !onlyIds || onlyIds.includes(scenario.id));
    const listBody = await smoke(server.url, scenarios[0]!);
    if (!listBody.ok) throw new Error(`scenario 1 does not answer: ${listBody.note}`);
    // The ceiling is the machine's pace, which drifts over a run (80,000–107,000 req/s between
    // runs of one day): it is measured before the scenarios, halfway through and after them, and
    // every share is of the median of the three.
    const ceilings: Measured[] = [];
    const sampleCeiling = async (when: string) => {
      const sample = await measureCeiling(dir, listBody.bytes);
      ceilings.push(sample);
      console.log(`ceiling (${when}): ${Math.round(sample.requestsPerSecond).toLocaleString("en-CA")} req/s`);
    };
    await sampleCeiling("before the scenarios");
    const readFloors: Omit<ReadFloorRecord, "ratioToCeiling">[] = [];
    for (const scenario of scenarios.filter((s) => s.id === "detail" || s.id === "reviews")) {
      const result = await measureReadFloor(scenario, db, dir);
      console.log(`read floor of ${scenario.label}: ${result.requestsPerSecond.toLocaleString("en-CA")} req/s`);
      readFloors.push({ id: scenario.id, label: `floor of ${scenario.label.slice(0, 3)}: bare Bun.serve + its SQLite read only`, result });
    }
    const peer = await measurePeer(scenarios, brokers);
    const peerRate = (id: string) => (peer.ok ? peer.results.find((r) => r.id === id)?.result.requestsPerSecond : undefined);

    const records: ScenarioRecord[] = [];
    // The server's RssAnon while its scenarios run (not while it waits for the ceiling or the peer).
    const memory = new RssAnonSampler(server.proc.pid);
    for (const [index, scenario] of scenarios.entries()) {
      if (index === Math.floor(scenarios.length / 2)) await sampleCeiling("halfway");
      const check = await smoke(server.url, scenario);
      if (!check.ok) {
        console.log(`${scenario.label}: n/a (${check.note})`);
        records.push({ id: scenario.id, label: scenario.label, sample: scenario.sample, result: null, ratioToCeiling: null, responseBytes: null, note: check.note });
        continue;
      }
      memory.on();
      const result = await measure(server.url, scenario.requests, server.proc.pid, server.logFile).finally(() => memory.off());
      const afterBytes = memoryOf(server.proc.pid).rssAnon;
      // The reading right after counts toward the peak: samples are 100 ms apart.
      const rssAnon = { afterBytes, peakBytes: Math.max(afterBytes, memory.peakSinceOn()) };
      const answerTimes = result.server ? `; server time p50 ${result.server.p50Ms} ms, p99 ${result.server.p99Ms} ms` : "";
      console.log(`${scenario.label}: ${result.requestsPerSecond.toLocaleString("en-CA")} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${answerTimes}`);
      records.push({
        id: scenario.id,
        label: scenario.label,
        sample: scenario.sample,
        result,
        ratioToCeiling: null, // once the ceiling's last sample is in (below)
        ...(peerRate(scenario.id) ? { ratioToPeer: Math.round((result.requestsPerSecond / peerRate(scenario.id)!) * 100) / 100 } : {}),
        responseBytes: check.bytes.byteLength,
        rssAnon,
      });
    }
    const rssAnonBytesAfter = memoryOf(server.proc.pid).rssAnon;
    const peak = peakRssBytes(server.proc.pid);
    await Bun.sleep(IDLE_SETTLE_MS);
    const rssAnonBytesIdle = memoryOf(server.proc.pid).rssAnon;
    const rssAnonWhileRunning = memory.summary();
    const warnings = await serverWarnings(server.logFile);
    await sampleCeiling("after the scenarios");
    const ceiling = medianBy(ceilings, (sample) => sample.requestsPerSecond);
    for (const record of records) if (record.result) record.ratioToCeiling = shareOf(record.result, ceiling);
    const leadPathCost = await leadPathCostOf(server.url, scenarios);
    const loggingCost = logLevel === "info" ? await loggingCostOf(db, dir, scenarios, hooksEnv) : undefined;
    const webhookDrain = await measureWebhookDrain(app, db, dir, () => hooksReceived, hooksEnv);
    const missStages = await missStagesOf(
      scenarios.map((scenario) => ({ scenario, ratioToCeiling: records.find((r) => r.id === scenario.id)?.ratioToCeiling ?? null })),
      { db, dir, seconds: load.durationSeconds, brokers, env: hooksEnv },
    );
    return {
      date: new Date().toISOString(),
      machine: machineInfo(),
      bun: Bun.version,
      loadGenerator: wrkVersion,
      server: { kind: app.kind, describe: app.describe, logLevel },
      settings: { brokers, durationSeconds: load.durationSeconds, repeat, warmupSeconds, connections: load.connections, threads: load.threads },
      directory,
      startup: {
        demoFirstStartMs: round(demoStartup.firstMs),
        demoRestartMs: round(demoStartup.restartMs),
        benchDatabaseMs: round(server.startupMs),
        benchFirstSearchMs: round(firstSearchMs),
      },
      peakRssBytes: peak,
      rssAnonBytesAfter,
      rssAnonBytesIdle,
      ...(rssAnonWhileRunning ? { rssAnonWhileRunning } : {}),
      serverWarnings: warnings,
      ceiling: { result: ceiling, responseBytes: listBody.bytes.byteLength, samples: ceilings.map((sample) => Math.round(sample.requestsPerSecond)) },
      readFloors: readFloors.map((floor) => ({ ...floor, ratioToCeiling: shareOf(floor.result, ceiling) })),
      peer,
      scenarios: records,
      ...(leadPathCost ? { leadPathCost } : {}),
      ...(loggingCost ? { loggingCost } : {}),
      ...(webhookDrain ? { webhookDrain } : {}),
      ...(missStages.length > 0 ? { missStages } : {}),
    };
  } finally {
    await stopProcess(server);
    await receiver.stop(true);
  }
}

/** What a key and an endpoint add to a lead POST, in turns on the same server (when (13), (14) and (15) all ran). */
async function leadPathCostOf(url: string, scenarios: Scenario[]) {
  const requestsOf = (id: ScenarioId) => scenarios.find((s) => s.id === id)?.requests;
  const [lead, keyed, hooked] = [requestsOf("lead"), requestsOf("leadKeyed"), requestsOf("leadHooked")];
  if (!lead || !keyed || !hooked) return undefined;
  console.log("lead POST costs: (13), (14), (15) in turns…");
  const cost = await measureLeadPathCost(url, { lead, keyed, hooked }, load);
  console.log(`idempotency key costs ${Math.round(cost.idempotencyCost * 100)} %, one webhook endpoint (the outbox) ${Math.round(cost.outboxCost * 100)} % of lead throughput`);
  return cost;
}

/**
 * The access log's cost on the hot list and /healthz (those measured in this run): fresh servers
 * at info and at warn, in 2-second turns (seven of each: the machine drifts more than the log costs).
 */
async function loggingCostOf(db: string, dir: string, scenarios: Scenario[], env: Record<string, string>) {
  const measured = scenarios.filter((s) => s.id === "list" || s.id === "healthz");
  if (measured.length === 0) return undefined;
  console.log("access log cost: info against warn, in turns…");
  const costs = await measureLoggingCost(app, { db, dir, warmupSeconds, load: { ...load, durationSeconds: 2 }, scenarios: measured, env });
  for (const c of costs) console.log(`${c.scenario}: info ${c.infoRequestsPerSecond.toLocaleString("en-CA")} req/s, warn ${c.warnRequestsPerSecond.toLocaleString("en-CA")} req/s: the access log costs ${Math.round(c.cost * 100)} %`);
  return costs;
}

/** `seed --brokers N`, or a copy of the database a previous run with the same --seed-cache seeded. */
function seedDatabase(app: AppCommand, brokers: number, db: string, dir: string): void {
  const cacheDir = values["seed-cache"];
  const cached = cacheDir ? join(cacheDir, `seed-${brokers}.db`) : undefined;
  if (cached && existsSync(cached)) return copyFileSync(cached, db);
  runCli(app, ["seed", "--brokers", String(brokers), "--db", db], dir);
  if (cached) {
    mkdirSync(cacheDir!, { recursive: true });
    const written = new Database(db);
    written.run("PRAGMA wal_checkpoint(TRUNCATE)");
    written.close();
    copyFileSync(db, cached);
  }
}

/**
 * Warm-up (discarded: JIT, caches, connections), then `repeat` runs of `load`; the run of median
 * throughput stands for the scenario (medianRun), as issue 30 measures. CPU shares and server
 * times cover all the runs.
 */
async function measure(baseUrl: string, requests: LoadRequest[], serverPid: number, logFile?: string) {
  if (warmupSeconds > 0) await runWrk(baseUrl, requests, { ...load, durationSeconds: warmupSeconds });
  if (logFile) await Bun.sleep(100); // the warm-up's last log lines are flushed before the offset is taken
  const offset = logFile ? logOffset(logFile) : 0;
  const before = cpuSnapshot(serverPid);
  const runs = [];
  for (let run = 0; run < repeat; run++) runs.push(await runWrk(baseUrl, requests, load));
  const cpu = cpuShare(before, cpuSnapshot(serverPid), runs.reduce((total, run) => total + run.loadGeneratorCpuSeconds, 0));
  const server = logFile ? await serverTimesSince(logFile, offset) : undefined;
  return { ...medianRun(runs), cpu, ...(server ? { server } : {}) };
}

async function measureCeiling(dir: string, body: Uint8Array) {
  const bodyFile = join(dir, "ceiling-body.json");
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const ceiling = await startProcess([process.execPath, join(REPO, "scripts/bench/ceilingServer.ts"), bodyFile, String(port)], {
    port,
    cwd: dir,
    logFile: join(dir, "ceiling.log"),
  });
  try {
    return await measure(ceiling.url, [{ method: "GET", path: "/api/v1/brokers?province=ON&limit=20", headers: { Authorization: "Bearer x" } }], ceiling.proc.pid);
  } finally {
    await stopProcess(ceiling);
  }
}

/**
 * The peer (scripts/bench/peer.ts) on the list, `q` and detail requests of this run's scenarios,
 * started after the ceiling and stopped before the product's scenarios run (it would take CPU
 * from them). Never fails the run: a peer that cannot be installed or started is reported.
 */
async function measurePeer(scenarios: Scenario[], brokers: number): Promise<PeerRecord> {
  const served = scenarios.filter((s) => (PEER_SCENARIOS as readonly string[]).includes(s.id));
  if (served.length === 0) return { ok: false, reason: "no scenario the peer serves was selected" };
  const started = await startPeer({ workDir, brokers, seedCache: values["seed-cache"] });
  if (!started.ok) {
    console.log(`peer: not measured (${started.reason})`);
    return { ok: false, reason: started.reason };
  }
  const { peer } = started;
  try {
    const results: PeerRecord & { ok: true } = { ok: true, results: [] };
    for (const scenario of served) {
      const requests = await peerRequests(peer, scenario);
      const result = await measure(peer.url, requests, peer.pid);
      console.log(`peer, ${scenario.label}: ${result.requestsPerSecond.toLocaleString("en-CA")} req/s over ${requests.length.toLocaleString("en-CA")} URLs`);
      results.results.push({ id: scenario.id, urls: requests.length, result });
    }
    return results;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`peer: measurement failed (${reason})`);
    return { ok: false, reason };
  } finally {
    await peer.stop();
  }
}

/** A scenario's requests against scripts/bench/readFloorServer.ts: its SQLite read, and nothing else. */
async function measureReadFloor(scenario: Scenario, db: string, dir: string) {
  const port = await freePort();
  const floor = await startProcess([process.execPath, join(REPO, "scripts/bench/readFloorServer.ts"), scenario.id, db, String(port)], {
    port,
    cwd: dir,
    logFile: join(dir, `floor-${scenario.id}.log`),
  });
  try {
    return await measure(floor.url, scenario.requests, floor.proc.pid);
  } finally {
    await stopProcess(floor);
  }
}

/** Sends a scenario's first request once: it must answer the expected status to be measured. */
async function smoke(baseUrl: string, scenario: Scenario): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; note: string }> {
  const first = scenario.requests[0]!;
  const response = await fetch(baseUrl + first.path, { method: first.method, headers: first.headers, body: first.body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  if (response.status !== scenario.expectStatus) {
    return { ok: false, note: `answered ${response.status} instead of ${scenario.expectStatus}: ${text.slice(0, 200)}` };
  }
  const problem = scenario.problemIn?.(text);
  return problem ? { ok: false, note: problem } : { ok: true, bytes };
}

/** performance.now() when the first free-text search answered 200. */
async function firstAnsweredSearch(baseUrl: string, key: string): Promise<number> {
  for (let attempt = 0; attempt < 5_000; attempt++) {
    const response = await fetch(`${baseUrl}/api/v1/brokers?q=Patel&limit=20`, { headers: { Authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    if (response.ok) return performance.now();
    await Bun.sleep(2);
  }
  throw new Error("the first search never answered 200");
}

function directoryCounts(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const one = (sql: string) => (db.query(sql).get() as { n: number }).n;
    return {
      publishedBrokers: one("SELECT count(*) AS n FROM brokers WHERE published = 1"),
      reviews: one("SELECT count(*) AS n FROM reviews"),
    };
  } finally {
    db.close();
  }
}

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Requests/second as a share of the ceiling's, to three decimals (what the table shows as a percentage). */
function shareOf(result: { requestsPerSecond: number }, ceiling: { requestsPerSecond: number }): number {
  return Math.round((result.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 1000;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
