/**
 * One scenario against a fresh server from source under `bun --cpu-prof`, and where its
 * requests' time went by stage (profileStages.ts). Shared by `scripts/bench/profile.ts` (one
 * scenario, by hand) and `bun run bench`, which adds the breakdown of the cache-miss scenarios
 * to its results when they fall short of issue 30's targets ("the bench shows where each
 * microsecond of a miss goes").
 *
 * The profiler costs CPU of its own, so the microseconds it gives a request add up to more than
 * the same request costs without it: compare stages, not totals with the bench's figures.
 *
 * @example
 * const run = await profiledRun({ db, dir, scenario, seconds: 6 });
 * for (const line of stageLines(run.stages)) console.log(line);
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, REPO, startProcess, stopProcess } from "./appProcess.ts";
import { stagesOf, type CpuProfile, type StageTime } from "./profileStages.ts";
import type { Scenario } from "./scenarios.ts";
import { runWrk, type LoadResult } from "./wrk.ts";

export interface ProfiledRun {
  /** The measured run, under the profiler. */
  result: LoadResult;
  stages: { stages: StageTime[]; idleShare: number };
  profile: CpuProfile;
  profilePath: string;
}

/**
 * The scenario against a fresh server from source: 2 s of warm-up, then `seconds` measured.
 * With `cpuProfDir`, the server runs under `bun --cpu-prof` and writes its profile there when
 * it stops.
 */
export async function sourceServerRun(
  options: { db: string; dir: string; scenario: Scenario; seconds: number; env?: Record<string, string> },
  cpuProfDir?: string,
): Promise<{ warmup: LoadResult; result: LoadResult }> {
  const port = await freePort();
  const profiling = cpuProfDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`];
  const server = await startProcess(
    [process.execPath, ...profiling, join(REPO, "src/main.ts"), "serve", "--db", options.db, "--port", String(port), "--host", "127.0.0.1", "--no-demo"],
    { port, cwd: options.dir, logFile: join(cpuProfDir ?? options.dir, "server.log"), env: options.env },
  );
  try {
    const warmup = await runWrk(server.url, options.scenario.requests, { durationSeconds: 2, connections: 32, threads: 1 });
    const result = await runWrk(server.url, options.scenario.requests, { durationSeconds: options.seconds, connections: 32, threads: 1 });
    return { warmup, result };
  } finally {
    // A profile is written when the server exits.
    await stopProcess(server);
  }
}

export async function profiledRun(options: { db: string; dir: string; scenario: Scenario; seconds: number; env?: Record<string, string> }): Promise<ProfiledRun> {
  const profDir = join(options.dir, `prof-${options.scenario.id}-${Date.now()}`);
  mkdirSync(profDir, { recursive: true });
  const { warmup, result } = await sourceServerRun(options, profDir);
  const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile in ${profDir}`);
  const profilePath = join(profDir, file);
  const profile = JSON.parse(readFileSync(profilePath, "utf8")) as CpuProfile;
  // The profile spans the warm-up and the measured run.
  return { result, stages: stagesOf(profile, warmup.requests + result.requests), profile, profilePath };
}
