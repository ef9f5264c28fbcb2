/**
 * The bench's memory by scenario (scripts/bench/processMemory.ts, report.ts): the sampler's peak
 * starts again with each scenario, and the report names each scenario with the RssAnon right
 * after it and its peak, so a run whose memory jumps says where (a 1,000-broker run once ended
 * at 470 MB against 205 MB the next time, and nothing said which scenario).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RssAnonSampler } from "../../scripts/bench/processMemory.ts";
import { summaryLines, type BenchRecord } from "../../scripts/bench/report.ts";

test("the peak since on() is this window's, starting again at each on()", async () => {
  const sampler = new RssAnonSampler(process.pid, 20);
  sampler.on();
  await Bun.sleep(120);
  sampler.off();
  const first = sampler.peakSinceOn();
  expect(first).toBeGreaterThan(1024 * 1024);
  sampler.on();
  // No reading has been taken in the new window yet.
  expect(sampler.peakSinceOn()).toBe(0);
  sampler.off();
  expect(sampler.summary()!.peakBytes).toBeGreaterThanOrEqual(first);
});

test("the report lists each measured scenario's memory; a record without it prints no such line", () => {
  const MB = 2 ** 20;
  // A real run's record (kept in the repository), from before scenarios carried their memory.
  const record = JSON.parse(readFileSync(join(import.meta.dir, "../../scripts/bench/results/2026-11-27-1000-search-pages-final.json"), "utf8")) as BenchRecord;
  expect(summaryLines(record).some((line) => line.startsWith("RssAnon right after"))).toBe(false);
  record.scenarios.find((s) => s.id === "list")!.rssAnon = { afterBytes: 150 * MB, peakBytes: 160 * MB };
  record.scenarios.find((s) => s.id === "detail")!.rssAnon = { afterBytes: 470 * MB, peakBytes: 514 * MB };
  const line = summaryLines(record).find((l) => l.startsWith("RssAnon right after each scenario"));
  expect(line).toBe("RssAnon right after each scenario (and its peak while the scenario ran): list 150.0 MB (peak 160.0 MB), detail 470.0 MB (peak 514.0 MB)");
});
