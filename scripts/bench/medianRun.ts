/**
 * One figure from several wrk runs of the same requests, as issue 30 measures ("wrk -t1 -c32,
 * 5 s, median of 3"): the run of median throughput stands for them all (its latencies with it),
 * every run's req/s is kept beside it, and the errors of all runs are counted, so a failing run
 * is never hidden behind a good median.
 *
 * @example
 * const runs = [await runWrk(url, requests, load), await runWrk(url, requests, load), await runWrk(url, requests, load)];
 * const { requestsPerSecond, runsPerSecond } = medianRun(runs); // runsPerSecond: [41200, 43900, 40100]
 */
import { medianBy } from "./median.ts";
import type { LoadResult } from "./wrk.ts";

export type MedianRun = LoadResult & {
  /** Each run's requests/second, in the order they ran. */
  runsPerSecond: number[];
};

export function medianRun(runs: readonly LoadResult[]): MedianRun {
  const median = medianBy(runs, (run) => run.requestsPerSecond);
  const sum = (field: "errorStatuses" | "socketErrors") => runs.reduce((total, run) => total + run[field], 0);
  return {
    ...median,
    errorStatuses: sum("errorStatuses"),
    socketErrors: sum("socketErrors"),
    runsPerSecond: runs.map((run) => Math.round(run.requestsPerSecond)),
  };
}
