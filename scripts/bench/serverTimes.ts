/**
 * The server's own time per answer during a measured run, read from its access log: each
 * line's `ms` runs from the request reaching fetch to the response being handed back, so it is
 * the time the server spent answering, without the wait in the socket queue that wrk's closed
 * loop adds at saturation (32 connections kept full: wrk's p50 is about 32 ÷ throughput). An
 * "answers in p99 < 20 ms" target is this figure; wrk's is the latency a client sees when the
 * server is kept exactly busy.
 */
import { openSync, readSync, closeSync, statSync } from "node:fs";

export interface ServerTimes {
  answers: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Where the log ends now: pass it to serverTimesSince after the run. */
export function logOffset(logFile: string): number {
  return statSync(logFile).size;
}

/**
 * The percentiles of `ms` over the request lines written after `offset`, once the server has
 * flushed them (its log buffer is written within 50 ms). Undefined when the log holds none
 * (log level warn or above).
 */
export async function serverTimesSince(logFile: string, offset: number): Promise<ServerTimes | undefined> {
  await Bun.sleep(150);
  const size = statSync(logFile).size;
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(logFile, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  const times: number[] = [];
  for (const match of buffer.toString("utf8").matchAll(/"msg":"request".*?"ms":([0-9.]+)/g)) times.push(Number(match[1]));
  if (times.length === 0) return undefined;
  const sorted = Float64Array.from(times).sort();
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  return { answers: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1]! };
}
