import { describe, expect, test } from "bun:test";
import { medianBy } from "../../scripts/bench/median.ts";
import { medianRun } from "../../scripts/bench/medianRun.ts";
import type { LoadResult } from "../../scripts/bench/wrk.ts";

const run = (requestsPerSecond: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  requests: requestsPerSecond * 5,
  seconds: 5,
  requestsPerSecond,
  p50Ms: requestsPerSecond / 10_000,
  p90Ms: 1,
  p99Ms: 2,
  maxMs: 3,
  errorStatuses: 0,
  socketErrors: 0,
  bytesRead: 1,
  loadGeneratorCpuSeconds: 4,
  ...extra,
});

describe("the bench's median of several runs", () => {
  test("the run of median throughput stands for all, its latencies with it, every run's rate beside it", () => {
    const figure = medianRun([run(41_200), run(39_900), run(43_800)]);
    expect(figure.requestsPerSecond).toBe(41_200);
    expect(figure.p50Ms).toBe(4.12);
    expect(figure.runsPerSecond).toEqual([41_200, 39_900, 43_800]);
  });

  test("errors of every run are counted, not only the median's", () => {
    const figure = medianRun([run(41_200), run(39_900, { errorStatuses: 7 }), run(43_800, { socketErrors: 2 })]);
    expect(figure.errorStatuses).toBe(7);
    expect(figure.socketErrors).toBe(2);
  });

  test("an even count takes the upper middle; nothing to take the median of is an error", () => {
    expect(medianBy([{ rate: 3 }, { rate: 1 }, { rate: 4 }, { rate: 2 }], (x) => x.rate)).toEqual({ rate: 3 });
    expect(() => medianRun([])).toThrow();
  });
});
