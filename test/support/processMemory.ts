import { readFileSync } from "node:fs";

/**
 * A process's anonymous resident memory in MB (RssAnon of /proc/PID/status): its heaps and
 * buffers, without the mapped executable and files that RSS also counts.
 */
export function rssAnonMb(pid: number): number {
  const kb = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kb === undefined) throw new Error(`no RssAnon for process ${pid}`);
  return Number(kb) / 1024;
}

/** The highest RssAnon seen over `ms`, sampled every 100 ms. */
export async function peakRssAnonMb(pid: number, ms: number): Promise<number> {
  let peak = rssAnonMb(pid);
  for (const until = Date.now() + ms; Date.now() < until; ) {
    await Bun.sleep(100);
    peak = Math.max(peak, rssAnonMb(pid));
  }
  return peak;
}
