/**
 * Issue 30: "if a number stays short, the bench shows where each microsecond of a miss goes (a
 * per-stage breakdown from the profile)". For each cache-miss scenario of the run, (3) detail
 * and (4) reviews, that fell short of its target share of the ceiling, the same scenario again
 * on a fresh server from source under the CPU profiler, and its requests' time by stage
 * (profileStages.ts). Run after the measured scenarios, on the bench's database, while the
 * bench's own server is idle.
 */
import { profiledRun } from "./profiledRun.ts";
import { stageLines, type StageTime } from "./profileStages.ts";
import type { Scenario, ScenarioId } from "./scenarios.ts";

/** Issue 30's targets for the misses, as shares of the ceiling. */
const TARGETS: Partial<Record<ScenarioId, number>> = { detail: 0.2, reviews: 0.17 };

export interface MissStagesRecord {
  id: ScenarioId;
  label: string;
  /** The scenario's share of the ceiling in the measured run, and the target it missed. */
  ratioToCeiling: number;
  target: number;
  /** Under the profiler (which costs CPU of its own: compare stages, not totals). */
  profiledRequestsPerSecond: number;
  stages: StageTime[];
  idleShare: number;
}

export async function missStagesOf(
  measured: { scenario: Scenario; ratioToCeiling: number | null }[],
  options: { db: string; dir: string; seconds: number; env?: Record<string, string> },
): Promise<MissStagesRecord[]> {
  const records: MissStagesRecord[] = [];
  for (const { scenario, ratioToCeiling } of measured) {
    const target = TARGETS[scenario.id];
    if (target === undefined || ratioToCeiling === null || ratioToCeiling >= target) continue;
    console.log(`${scenario.label}: ${Math.round(ratioToCeiling * 100)} % of the ceiling, short of ${Math.round(target * 100)} %: where its time goes, under the profiler…`);
    const run = await profiledRun({ db: options.db, dir: options.dir, scenario, seconds: options.seconds, env: options.env });
    records.push({
      id: scenario.id,
      label: scenario.label,
      ratioToCeiling,
      target,
      profiledRequestsPerSecond: Math.round(run.result.requestsPerSecond),
      stages: run.stages.stages.map((s) => ({ ...s, share: Math.round(s.share * 1000) / 1000, microsPerRequest: s.microsPerRequest === undefined ? undefined : Math.round(s.microsPerRequest * 10) / 10 })),
      idleShare: Math.round(run.stages.idleShare * 1000) / 1000,
    });
  }
  return records;
}

/** The breakdowns as the bench prints them. */
export function missStageLines(records: readonly MissStagesRecord[]): string[] {
  return records.flatMap((r) => [
    "",
    `${r.label}: ${Math.round(r.ratioToCeiling * 100)} % of the ceiling (target ${Math.round(r.target * 100)} %); under the profiler ${r.profiledRequestsPerSecond.toLocaleString("en-CA")} req/s, by stage:`,
    ...stageLines({ stages: r.stages, idleShare: r.idleShare }),
  ]);
}
