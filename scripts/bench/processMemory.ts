import { readFileSync } from "node:fs";

/**
 * A live process's resident memory from /proc/<pid>/status: all of it (VmRSS) and the anonymous
 * part (RssAnon: the heap, what a leak grows; the mapped executable and files are RssFile).
 */
export function memoryOf(pid: number): { rss: number; rssAnon: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => {
    const value = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1];
    if (!value) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(value) * 1024;
  };
  return { rss: kb("VmRSS"), rssAnon: kb("RssAnon") };
}

/**
 * RssAnon read every `everyMs` while sampling is on (the scenarios run), for its mean and peak:
 * a single reading right after the last scenario lands anywhere in the collector's cycle (for
 * the same code, 188 to 320 MB at 100,000 brokers), the mean and the peak say more.
 *
 * @example
 * const sampler = new RssAnonSampler(pid);
 * sampler.on(); await runScenario(); sampler.off();
 * sampler.peakSinceOn(); // that scenario's peak
 * sampler.summary(); // { meanBytes, peakBytes, samples } over every scenario
 */
export class RssAnonSampler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private total = 0;
  private count = 0;
  private peak = 0;
  /** The peak since the last `on()`: one scenario's, so a run whose memory jumps says in which scenario. */
  private windowPeak = 0;

  constructor(
    private readonly pid: number,
    private readonly everyMs = 100,
  ) {}

  on(): void {
    this.windowPeak = 0;
    this.timer ??= setInterval(() => {
      const { rssAnon } = memoryOf(this.pid);
      this.total += rssAnon;
      this.count++;
      this.peak = Math.max(this.peak, rssAnon);
      this.windowPeak = Math.max(this.windowPeak, rssAnon);
    }, this.everyMs);
  }

  /** The highest reading since the last `on()` (0 when none was taken yet). */
  peakSinceOn(): number {
    return this.windowPeak;
  }

  off(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  summary(): { meanBytes: number; peakBytes: number; samples: number } | undefined {
    return this.count === 0 ? undefined : { meanBytes: Math.round(this.total / this.count), peakBytes: this.peak, samples: this.count };
  }
}
