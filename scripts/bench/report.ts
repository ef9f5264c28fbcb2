/** The benchmark's record (written as JSON so runs can be compared) and its printed table. */
import { cpus, release, totalmem } from "node:os";
import type { CpuShare } from "./cpuUsage.ts";
import type { LoggingCost } from "./loggingCost.ts";
import type { LeadPathCost } from "./leadPathCost.ts";
import type { WebhookDrainRecord } from "./webhookDrain.ts";
import type { ReplicaStartMeasure, ReplicaStartRecord } from "./replicaStart.ts";
import type { ServerTimes } from "./serverTimes.ts";
import type { LoadResult } from "./wrk.ts";
import type { MissStagesRecord } from "./missStages.ts";

/** `runsPerSecond`: each run's req/s when the figure is the median of several (absent before 2026-11-27). */
export type Measured = LoadResult & { cpu: CpuShare; server?: ServerTimes; runsPerSecond?: number[] };

export interface ScenarioRecord {
  id: string;
  label: string;
  sample: string;
  /** null when the scenario could not run (endpoint absent or failing): see `note`. */
  result: Measured | null;
  /** requests/second as a share of the bare Bun.serve ceiling. */
  ratioToCeiling: number | null;
  responseBytes: number | null;
  note?: string;
  /** requests/second as a multiple of the peer's on the same requests (list, `q`, detail), when the peer ran. */
  ratioToPeer?: number;
  /** The server's RssAnon right after the scenario and its peak while the scenario ran, warm-up included (absent before 2026-11-27, late). */
  rssAnon?: { afterBytes: number; peakBytes: number };
}

/**
 * The conventional Node.js peer (Fastify + better-sqlite3, scripts/bench/peer.ts) on the
 * scenarios it serves, in the same run: or why it did not run (the bench goes on without it).
 */
export type PeerRecord =
  | { ok: true; results: { id: string; urls: number; result: Measured }[] }
  | { ok: false; reason: string };

/**
 * A bare Bun.serve doing only the SQLite read of a detail or reviews miss, with the product's
 * statements (scripts/bench/readFloorServer.ts): the most any server reading SQLite per miss
 * reaches here, so the share scenarios (3) and (4) can reach when most requests miss.
 */
export interface ReadFloorRecord {
  id: string;
  label: string;
  result: Measured;
  ratioToCeiling: number;
}

export interface BenchRecord {
  date: string;
  machine: { cores: number; cpu: string; memoryGiB: number; kernel: string };
  bun: string;
  loadGenerator: string;
  server: { kind: "binary" | "source"; describe: string; logLevel: string };
  /** `repeat`: runs of each measurement, the median kept (absent before 2026-11-27: one run). */
  settings: { brokers: number; durationSeconds: number; repeat?: number; warmupSeconds: number; connections: number; threads: number };
  directory: { brokers: number; publishedBrokers: number; reviews: number; databaseBytes: number; seedSeconds: number };
  startup: {
    /** Demo data, empty database: create, migrate, load the demo directory, listen. */
    demoFirstStartMs: number;
    /** Demo data, second start on the same database (median of three). */
    demoRestartMs: number;
    /** The benchmark's own N-broker database. */
    benchDatabaseMs: number;
    /** From exec to the first answered free-text search (the search index is built after /healthz). */
    benchFirstSearchMs: number;
  };
  peakRssBytes: number;
  /** The server's anonymous resident memory (RssAnon: heap, not the mapped database) after the last scenario. */
  rssAnonBytesAfter?: number;
  /** The same, 2.5 s later, the server left quiet (it collects garbage once traffic stops: src/ops/idleCollector.ts). */
  rssAnonBytesIdle?: number;
  /** RssAnon every 100 ms while the scenarios ran (warm-ups included): its mean and peak (absent before 2026-11-27). */
  rssAnonWhileRunning?: { meanBytes: number; peakBytes: number; samples: number };
  /** The server's warn and error lines over the scenarios, counted by message (scripts/bench/serverWarnings.ts; absent before 2026-11-27, night). */
  serverWarnings?: Record<string, number>;
  /**
   * The median of `samples` (req/s), each the ceiling measured at another moment of the run:
   * before the scenarios, halfway and after (absent before 2026-11-27: one measurement).
   */
  ceiling: { result: Measured; responseBytes: number; samples?: number[] };
  /** Absent in runs before 2026-11-26, and when neither (3) nor (4) ran. */
  readFloors?: ReadFloorRecord[];
  /** Absent in runs before 2026-11-26 (issue 30). */
  peer?: PeerRecord;
  scenarios: ScenarioRecord[];
  /** What an idempotency key and a webhook endpoint add to a lead POST, in turns (scripts/bench/leadPathCost.ts). */
  leadPathCost?: LeadPathCost;
  /** At log level info: what the access log costs against warn (scripts/bench/loggingCost.ts). */
  loggingCost?: LoggingCost[];
  /** Scenario (15)'s webhook deliveries, sent afterwards by an instance doing nothing else (scripts/bench/webhookDrain.ts). */
  webhookDrain?: WebhookDrainRecord;
  /** Where the time goes of each scenario short of its issue-30 target (scripts/bench/missStages.ts): (3) and (4) since 2026-11-26, every target since 2026-11-27. */
  missStages?: MissStagesRecord[];
}

export function machineInfo(): BenchRecord["machine"] {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
  };
}

const fmt = (n: number) => n.toLocaleString("en-CA");
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;

/** The table as Markdown (printed, and pasted into the manual's performance page). */
export function markdownTable(record: BenchRecord): string {
  const header =
    `| scenario | req/s | p50 ms | p99 ms | server p50 ms | server p99 ms | vs ceiling | vs /healthz | vs peer | server cores |\n` +
    `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`;
  const healthz = record.scenarios.find((s) => s.id === "healthz")?.result?.requestsPerSecond;
  const percent = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? "" : `${Math.round(ratio * 100)} %`);
  const times = (ratio: number | undefined) => (ratio === undefined ? "" : `${ratio.toFixed(2)}×`);
  const row = (label: string, r: Measured | null, ratio: number | null, note?: string, toPeer?: number) =>
    r
      ? `| ${label} | ${fmt(r.requestsPerSecond)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.server?.p50Ms.toFixed(2) ?? ""} | ${r.server?.p99Ms.toFixed(2) ?? ""} | ${percent(ratio)} | ${percent(healthz ? r.requestsPerSecond / healthz : null)} | ${times(toPeer)} | ${r.cpu.server.toFixed(2)} |`
      : `| ${label} | n/a | | | | | ${note ?? ""} | | | |`;
  const ceiling = record.ceiling.result.requestsPerSecond;
  const peer = record.peer?.ok ? record.peer.results : [];
  const rows = [
    row("ceiling: bare Bun.serve, same body as (1)", record.ceiling.result, 1),
    ...(record.readFloors ?? []).map((f) => row(f.label, f.result, f.ratioToCeiling)),
    ...peer.map((p) => row(`peer (Fastify + better-sqlite3): ${record.scenarios.find((s) => s.id === p.id)?.label.slice(0, 3) ?? p.id} over ${fmt(p.urls)} URLs`, p.result, p.result.requestsPerSecond / ceiling)),
    ...record.scenarios.map((s) => row(s.label, s.result, s.ratioToCeiling, s.note, s.ratioToPeer)),
  ];
  return [header, ...rows].join("\n");
}

export function summaryLines(record: BenchRecord): string[] {
  const s = record.startup;
  const d = record.directory;
  return [
    `${fmt(d.brokers)} brokers (${fmt(d.publishedBrokers)} published, ${fmt(d.reviews)} reviews), database ${mb(d.databaseBytes)}, seeded in ${d.seedSeconds.toFixed(1)} s`,
    `startup to /healthz: demo first start ${s.demoFirstStartMs.toFixed(0)} ms, demo restart ${s.demoRestartMs.toFixed(0)} ms, ` +
      `this database ${s.benchDatabaseMs.toFixed(0)} ms (first search answered at ${s.benchFirstSearchMs.toFixed(0)} ms)`,
    `server peak RSS (VmHWM) ${mb(record.peakRssBytes)}` +
      (record.rssAnonBytesAfter === undefined ? "" : `, anonymous memory (RssAnon) after the run ${mb(record.rssAnonBytesAfter)}`) +
      (record.rssAnonBytesIdle === undefined ? "" : `, and after 2.5 s quiet ${mb(record.rssAnonBytesIdle)}`) +
      (record.rssAnonWhileRunning ? `; while the scenarios ran (every 100 ms) mean ${mb(record.rssAnonWhileRunning.meanBytes)}, peak ${mb(record.rssAnonWhileRunning.peakBytes)}` : ""),
    ...(record.scenarios.some((scenario) => scenario.rssAnon)
      ? [
          `RssAnon right after each scenario (and its peak while the scenario ran): ${record.scenarios
            .filter((scenario) => scenario.rssAnon)
            .map((scenario) => `${scenario.id} ${mb(scenario.rssAnon!.afterBytes)} (peak ${mb(scenario.rssAnon!.peakBytes)})`)
            .join(", ")}`,
        ]
      : []),
    ...(record.serverWarnings
      ? [`server warnings and errors over the scenarios: ${Object.entries(record.serverWarnings).map(([message, count]) => `${message} (${fmt(count)})`).join("; ") || "none"}`]
      : []),
    `${record.server.describe}, log level ${record.server.logLevel}; ${record.loadGenerator}, ${record.settings.threads} thread, ` +
      `${record.settings.connections} connections, ` +
      (record.settings.repeat ? `the median of ${record.settings.repeat} runs of ${record.settings.durationSeconds} s` : `${record.settings.durationSeconds} s`) +
      ` per scenario after ${record.settings.warmupSeconds} s warm-up` +
      (record.ceiling.samples ? `; the ceiling the median of ${record.ceiling.samples.map(fmt).join(", ")} req/s (before the scenarios, halfway, after)` : ""),
    ...(record.leadPathCost
      ? [
          `lead POST in ${record.leadPathCost.turns} turns of (13), (14), (15): an idempotency key costs ${(record.leadPathCost.idempotencyCost * 100).toFixed(1)} %, one webhook endpoint (the outbox) ${(record.leadPathCost.outboxCost * 100).toFixed(1)} % of lead throughput (medians ${fmt(record.leadPathCost.leadRequestsPerSecond)}, ${fmt(record.leadPathCost.keyedRequestsPerSecond)}, ${fmt(record.leadPathCost.hookedRequestsPerSecond)} req/s; target under 15 %)`,
        ]
      : []),
    ...(record.loggingCost ?? []).map(
      (c) =>
        `access log cost on ${c.scenario}: ${Math.round(c.cost * 100)} % (info ${fmt(c.infoRequestsPerSecond)} req/s against warn ${fmt(c.warnRequestsPerSecond)}, medians of ${c.turns} turns each)`,
    ),
    ...(record.webhookDrain
      ? [
          `webhook deliveries of (15), sent afterwards by one delivering instance: ${fmt(record.webhookDrain.delivered)} of ${fmt(record.webhookDrain.pending)} in ${record.webhookDrain.seconds} s, ${fmt(record.webhookDrain.deliveriesPerSecond)} a second`,
        ]
      : []),
    `machine: ${record.machine.cores} cores (${record.machine.cpu}), ${record.machine.memoryGiB} GiB, Linux ${record.machine.kernel}, Bun ${record.bun}`,
  ];
}

export function warnings(record: BenchRecord): string[] {
  const peer = !record.peer ? [] : !record.peer.ok ? [`the peer did not run: ${record.peer.reason}`] : record.peer.results.flatMap((p) =>
    // At 100,000 brokers the peer's list and q can take most of a second each: 32 connections
    // may then wait past wrk's 10 s timeout, whose answers wrk does not count.
    p.result.socketErrors > 0 || p.result.errorStatuses > 0
      ? [`peer on ${p.id}: ${fmt(p.result.socketErrors)} socket errors (timeouts) and ${fmt(p.result.errorStatuses)} error statuses of ${fmt(p.result.requests)} answers: its rate is understated and product ÷ peer overstated (no ratio when it answered none)`]
      : []);
  return peer.concat(record.scenarios.flatMap((s) => {
    const out: string[] = [];
    if (s.note) out.push(`${s.label}: ${s.note}`);
    if (s.result && s.result.cpu.other > 0.15) {
      out.push(`${s.label}: other processes used ${s.result.cpu.other} cores during the run: the figure understates the server`);
    }
    if (s.result && (s.result.errorStatuses > 0 || s.result.socketErrors > 0)) {
      out.push(`${s.label}: ${fmt(s.result.errorStatuses)} error statuses and ${fmt(s.result.socketErrors)} socket errors of ${fmt(s.result.requests)} requests`);
    }
    return out;
  }));
}

/** `--replica-start`: cold against reused starts, each round, then the medians. */
export function replicaStartLines(record: ReplicaStartRecord): string[] {
  const part = (label: string, ms: number | null) => (ms === null ? "" : `, ${label} ${fmt(ms)} ms`);
  const start = (m: ReplicaStartMeasure) =>
    `${fmt(m.readyMs)} ms (${m.reused ? "catch-up" : "load"} ${m.replicaMs === null ? "?" : fmt(m.replicaMs)} ms${part("search index", m.searchIndexMs)}${part("discovery index", m.discoveryIndexMs)})`;
  const m = record.medianReadyMs;
  return [
    `PostgreSQL: ${fmt(record.settings.brokers)} brokers, ${fmt(record.seed.reviews)} reviews (${record.seed.how} in ${record.seed.seconds.toFixed(1)} s); ${record.settings.changedPerRestart} brokers changed before each restart`,
    ...record.rounds.map(
      (r, i) => `round ${i + 1}, spawn → /readyz 200: cold ${start(r.cold)}; reused after SIGTERM ${start(r.reused)}; reused after kill -9 ${start(r.reusedAfterCrash)}`,
    ),
    `median of ${record.rounds.length}: cold ${fmt(m.cold)} ms, reused after SIGTERM ${fmt(m.reused)} ms, reused after kill -9 ${fmt(m.reusedAfterCrash)} ms`,
    `${record.server.describe}, log level ${record.server.logLevel}; machine: ${record.machine.cores} cores (${record.machine.cpu}), ${record.machine.memoryGiB} GiB, Bun ${record.bun}`,
  ];
}
