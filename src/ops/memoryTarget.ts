import { readFileSync } from "node:fs";

/** What a MemoryTarget needs besides its target; each replaceable in tests. */
export interface MemoryTargetOptions {
  /** The process's anonymous resident memory in bytes, or undefined where it cannot be read. */
  readBytes?: () => number | undefined;
  /** One full collection, synchronous. */
  collect?: () => void;
  /** The shortest wait between two collections, and the longest it backs off to. */
  minGapMs?: number;
  maxGapMs?: number;
  now?: () => number;
}

/**
 * What a check did: found memory under the target, waited (a collection ran lately), collected,
 * or collected with the waits at their longest for the first time (the target looks out of reach).
 */
export type MemoryCheck = "under" | "waiting" | "collected" | "out-of-reach";

const DEFAULT_MIN_GAP_MS = 1_000;
const DEFAULT_MAX_GAP_MS = 60_000;

/**
 * Keeps the process's anonymous memory (RssAnon: the heaps, not mapped files) near a target
 * by running a full collection as soon as it is over, instead of when the engine would. The
 * engine lets its heap grow to about twice what was live at its last full collection, and it
 * counts the search index's mapped files as heap: at 100,000 brokers the bench read anywhere
 * from 188 to 320 MB for the same code depending on where in that cycle it looked, with 180–200
 * MB live. Checked four times a second (one read of /proc/self/status, about 15 µs); a collection under load costs
 * a pause of 35–50 ms at that size, and gives back enough that the next is seconds away or more.
 *
 * When a collection does not bring memory under the target, what is live is about as large as
 * the target itself, and collecting more often would only cost pauses: each further one waits
 * twice as long as the one before (up to a minute) until memory is seen under the target again.
 *
 * @example
 * const target = new MemoryTarget(240 * 1024 * 1024);
 * setInterval(() => target.check(), 250).unref();
 */
export class MemoryTarget {
  private readonly readBytes: () => number | undefined;
  private readonly collect: () => void;
  private readonly minGapMs: number;
  private readonly maxGapMs: number;
  private readonly now: () => number;
  private gapMs: number;
  private lastCollection = Number.NEGATIVE_INFINITY;
  /** A collection ran and no check since has found memory under the target. */
  private overSinceCollection = false;

  constructor(
    readonly targetBytes: number,
    options: MemoryTargetOptions = {},
  ) {
    this.readBytes = options.readBytes ?? anonymousResidentBytes;
    this.collect = options.collect ?? collectFully;
    this.minGapMs = options.minGapMs ?? DEFAULT_MIN_GAP_MS;
    this.maxGapMs = options.maxGapMs ?? DEFAULT_MAX_GAP_MS;
    this.now = options.now ?? (() => performance.now());
    this.gapMs = this.minGapMs;
  }

  /** Collects if memory is over the target and the wait since the last collection is over. */
  check(): MemoryCheck {
    const bytes = this.readBytes();
    if (bytes === undefined || bytes <= this.targetBytes) {
      this.overSinceCollection = false;
      this.gapMs = this.minGapMs;
      return "under";
    }
    const now = this.now();
    if (now - this.lastCollection < this.gapMs) return "waiting";
    const backingOff = this.overSinceCollection && this.gapMs < this.maxGapMs;
    if (backingOff) this.gapMs = Math.min(2 * this.gapMs, this.maxGapMs);
    this.lastCollection = now;
    this.overSinceCollection = true;
    this.collect();
    // Said once, when the waits reach their longest (and again only after memory was under the target).
    return backingOff && this.gapMs === this.maxGapMs ? "out-of-reach" : "collected";
  }
}

/**
 * Bun.gc(true): the engine's full collection, then mimalloc (which holds Bun's own native
 * memory) returns its free pages. The engine's collection alone (bun:jsc's fullGC) pauses for
 * less (20–30 ms against 35–50 at 100,000 brokers) but gives back little: in a run of detail,
 * lead, quote and search loads it collected five times and RssAnon stayed at 250–269 MB, over
 * a 240 MB target; with Bun.gc(true) one collection took it from 240 to 156 MB.
 */
export function collectFully(): void {
  Bun.gc(true);
}

const RSS_ANON = /^RssAnon:\s+(\d+) kB$/m;

/**
 * RssAnon as /proc/self/status reports it (in kB: no page size to assume, which differs between
 * machines). Undefined where there is no /proc (not Linux).
 */
export function anonymousResidentBytes(): number | undefined {
  let status: string;
  try {
    status = readFileSync("/proc/self/status", "latin1");
  } catch {
    return undefined;
  }
  const kb = RSS_ANON.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}
