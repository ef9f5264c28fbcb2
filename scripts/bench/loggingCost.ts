/**
 * What the access log costs: the same scenario against two fresh servers on the same database,
 * one at log level info (a line per request, as in production) and one at warn (no access log),
 * measured in turns (info, warn, info, warn, …) so that the machine's drift over a minute falls
 * on both alike; the median of each side is compared. The target is a cost of at most 10 %.
 */
import { join } from "node:path";
import { freePort, startApp, stopProcess, type AppCommand } from "./appProcess.ts";
import { runWrk, type LoadRequest, type LoadSettings } from "./wrk.ts";
import { median } from "./median.ts";

export interface LoggingCost {
  scenario: string;
  /** Median req/s of the turns at each level. */
  infoRequestsPerSecond: number;
  warnRequestsPerSecond: number;
  /** 1 − info / warn: the share of throughput the access log takes (negative: within noise). */
  cost: number;
  turns: number;
}

const TURNS = 7;

export async function measureLoggingCost(
  app: AppCommand,
  options: { db: string; dir: string; load: LoadSettings; warmupSeconds: number; scenarios: { id: string; requests: LoadRequest[] }[]; env: Record<string, string> },
): Promise<LoggingCost[]> {
  // With the bench server's environment: its webhook deliverer off. On, these two servers would
  // send the outbox (15) left (over 100,000 deliveries) while they are measured, as they once did.
  const start = async (logLevel: "info" | "warn") =>
    startApp(app, { db: options.db, port: await freePort(), cwd: options.dir, logFile: join(options.dir, `logging-${logLevel}.log`), demo: false, logLevel, env: options.env });
  const info = await start("info");
  const warn = await start("warn");
  try {
    const costs: LoggingCost[] = [];
    for (const scenario of options.scenarios) {
      const samples = { info: [] as number[], warn: [] as number[] };
      for (const server of [info, warn]) await runWrk(server.url, scenario.requests, { ...options.load, durationSeconds: Math.max(1, options.warmupSeconds) });
      for (let turn = 0; turn < TURNS; turn++) {
        samples.info.push((await runWrk(info.url, scenario.requests, options.load)).requestsPerSecond);
        samples.warn.push((await runWrk(warn.url, scenario.requests, options.load)).requestsPerSecond);
      }
      const infoRps = median(samples.info);
      const warnRps = median(samples.warn);
      costs.push({ scenario: scenario.id, infoRequestsPerSecond: infoRps, warnRequestsPerSecond: warnRps, cost: Math.round((1 - infoRps / warnRps) * 1000) / 1000, turns: TURNS });
    }
    return costs;
  } finally {
    await Promise.all([stopProcess(info), stopProcess(warn)]);
  }
}
