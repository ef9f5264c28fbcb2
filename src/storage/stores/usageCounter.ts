import type { DailyUsage } from "./keyUsageStore.ts";
import type { KeyUsageStore } from "./keyUsageStore.ts";

export const DAY_MS = 86_400_000;
/** Pending (key, day) pairs held at most; reaching it flushes at once, so memory stays bounded. */
export const MAX_PENDING = 20_000;

/**
 * Counts requests per key and UTC day in memory, on the request path: one Map lookup and two
 * additions per request, no I/O. The counts go to the daily table when flush() runs (every
 * minute and at shutdown, see src/app.ts) or when MAX_PENDING pairs are waiting.
 */
export class UsageCounter {
  private pending = new Map<string, DailyUsage>();
  /** The UTC day string of the last request, and where that day ends: most calls reuse it. */
  private day = "";
  private dayEndsAt = 0;
  private dayStartsAt = 0;

  constructor(
    private readonly store: Pick<KeyUsageStore, "add">,
    private readonly onFlushError: (error: unknown) => void = () => {},
    private readonly maxPending = MAX_PENDING,
  ) {}

  /** One request of the key: admitted, or refused by its rate limit. */
  record(keyId: string, now: number, admitted: boolean): void {
    const day = this.dayOf(now);
    const id = `${keyId}|${day}`;
    let entry = this.pending.get(id);
    if (!entry) {
      if (this.pending.size >= this.maxPending) this.flush();
      entry = { keyId, day, requests: 0, refused: 0 };
      this.pending.set(id, entry);
    }
    if (admitted) entry.requests += 1;
    else entry.refused += 1;
  }

  /**
   * Writes what is pending. On failure (disk full, say) the counts stay pending for the next
   * flush unless that would pass the bound, in which case they are dropped: usage is a statistic.
   * Settles at once over SQLite; over PostgreSQL when the write has (it never rejects).
   */
  flush(): void | Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    let written;
    try {
      written = this.store.add([...batch.values()]);
    } catch (error) {
      return this.keepAfterFailure(batch, error);
    }
    if (written instanceof Promise) return written.catch((error: unknown) => this.keepAfterFailure(batch, error));
  }

  private keepAfterFailure(batch: Map<string, DailyUsage>, error: unknown): void {
    this.onFlushError(error);
    if (batch.size + this.pending.size <= this.maxPending) {
      for (const [id, entry] of batch) this.merge(id, entry);
    }
  }

  /** Counts not yet written, for these keys, from `fromDay` on (the usage view adds them). */
  pendingFor(keyIds: ReadonlySet<string>, fromDay: string): DailyUsage[] {
    return [...this.pending.values()].filter((e) => keyIds.has(e.keyId) && e.day >= fromDay).map((e) => ({ ...e }));
  }

  private merge(id: string, entry: DailyUsage): void {
    const existing = this.pending.get(id);
    if (!existing) this.pending.set(id, entry);
    else {
      existing.requests += entry.requests;
      existing.refused += entry.refused;
    }
  }

  private dayOf(now: number): string {
    if (now < this.dayStartsAt || now >= this.dayEndsAt) {
      this.dayStartsAt = now - (now % DAY_MS);
      this.dayEndsAt = this.dayStartsAt + DAY_MS;
      this.day = utcDay(now);
    }
    return this.day;
  }
}

/** YYYY-MM-DD of the UTC day holding `ms`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
