import type { CacheStats } from "../cache/boundedCache.ts";

/**
 * Per-key request budget over a sliding one-minute window.
 *
 * The interface is async so that a shared store (Redis/Valkey) can stand behind it when
 * several copies of the binary serve together; the in-process one below answers at once.
 */
export interface RateLimiter {
  /** Spends `units` (default 1) of the bucket's budget if they all fit, else none. */
  consume(bucket: string, limitPerMinute: number, nowMs: number, units?: number): Promise<RateDecision> | RateDecision;
  /** Drops state nothing needs any more; called on a schedule by the server (see maintenance.ts). */
  sweep?(nowMs: number): void;
  /** The windows held in this process against their cap (for /metrics and the memory-bounds test). */
  stats(): CacheStats;
  /** Lets go of connections, at stop. */
  close?(): void;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window after this one. */
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (at least 1). */
  resetSeconds: number;
}

const SLOTS = 60;
const SLOT_MS = 1_000;
/**
 * Windows kept at most (each ~400 bytes: 100,000 is ~40 MB). Buckets are key ids, so this is
 * keys active within one minute; past it idle windows are swept first, then the oldest go
 * (such a key starts a fresh window: an overflow loosens a limit, it never blocks a key).
 */
export const MAX_RATE_WINDOWS = 100_000;
const WINDOW_BYTES = SLOTS * 4 + 160;

interface Window {
  /** Requests counted in each one-second slot of the last minute, as a ring. */
  counts: Uint32Array;
  /** The second (epoch seconds) the newest slot stands for. */
  newestSecond: number;
  total: number;
}

/**
 * A sliding window of sixty one-second slots: a request is allowed while fewer than `limit`
 * requests were admitted in the last sixty seconds. JavaScript runs one request handler at a
 * time, so the check-and-count below is atomic: with 50 requests in flight, no more than the
 * limit get through. Memory is 60 counters per active key, whatever the limit.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly maxWindows = MAX_RATE_WINDOWS) {}

  consume(bucket: string, limit: number, nowMs: number, units = 1): RateDecision {
    const second = Math.floor(nowMs / SLOT_MS);
    let window = this.windows.get(bucket);
    if (!window) {
      if (this.windows.size >= this.maxWindows) this.makeRoom(nowMs);
      window = { counts: new Uint32Array(SLOTS), newestSecond: second, total: 0 };
      this.windows.set(bucket, window);
    }
    advance(window, second);
    const allowed = window.total + units <= limit;
    if (allowed) {
      window.counts[second % SLOTS]! += units;
      window.total += units;
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.total),
      resetSeconds: secondsUntilOldestExpires(window, second, nowMs),
    };
  }

  /** Drops windows with nothing in them, so idle keys cost no memory. */
  sweep(nowMs: number): void {
    const second = Math.floor(nowMs / SLOT_MS);
    for (const [bucket, window] of this.windows) {
      advance(window, second);
      if (window.total === 0) this.windows.delete(bucket);
    }
  }

  /** Windows held against the cap, in the shape of a cache's stats (for /metrics and tests). */
  stats(): CacheStats {
    const entries = this.windows.size;
    return { name: "rate-limit-windows", entries, bytes: entries * WINDOW_BYTES, maxEntries: this.maxWindows, maxBytes: this.maxWindows * WINDOW_BYTES };
  }

  private makeRoom(nowMs: number): void {
    this.sweep(nowMs);
    // Still full of live windows: the oldest created go (Map order), a tenth at a time.
    const excess = this.windows.size - this.maxWindows + Math.ceil(this.maxWindows / 10);
    if (excess <= 0) return;
    let dropped = 0;
    for (const bucket of this.windows.keys()) {
      if (dropped++ >= excess) break;
      this.windows.delete(bucket);
    }
  }
}

/** Empties the slots that fell out of the window since it was last touched. */
function advance(window: Window, second: number): void {
  const elapsed = second - window.newestSecond;
  if (elapsed <= 0) return;
  if (elapsed >= SLOTS) {
    window.counts.fill(0);
    window.total = 0;
  } else {
    for (let s = window.newestSecond + 1; s <= second; s++) {
      const slot = s % SLOTS;
      window.total -= window.counts[slot]!;
      window.counts[slot] = 0;
    }
  }
  window.newestSecond = second;
}

function secondsUntilOldestExpires(window: Window, second: number, nowMs: number): number {
  for (let age = SLOTS - 1; age >= 0; age--) {
    if (window.counts[(second - age + SLOTS * 2) % SLOTS]! > 0) {
      const leavesAtMs = (second - age + SLOTS) * SLOT_MS;
      return Math.max(1, Math.ceil((leavesAtMs - nowMs) / 1000));
    }
  }
  return SLOTS;
}
