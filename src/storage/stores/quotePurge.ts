import { and, asc, eq, exists, gte, inArray, lt, not } from "drizzle-orm";
import { rows, type Executor } from "../executor.ts";

/**
 * How long a quote is kept after it expires: it stays readable (with `expired: true`) for this
 * long, then the purge deletes it with its offers. A quote a lead refers to is kept as long as
 * the lead (leads are the workspace's records; their quoteId must keep resolving).
 */
export const QUOTE_PURGE_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/** Quotes examined per transaction: a batch holds the write lock for a few milliseconds only. */
export const QUOTE_PURGE_BATCH = 500;

/**
 * Deletes quotes past expiry plus the grace, one batch per call, oldest expiry first (the
 * quotes_expires index), so the caller can yield to the event loop between batches. `from` is
 * where the previous batch stopped: quotes kept because a lead refers to them are not walked
 * again within one run. Over either dialect (src/storage/executor.ts); with PostgreSQL several
 * instances may purge at once: a quote deleted by another is simply not counted here.
 */
export class QuotePurge {
  constructor(private readonly x: Executor) {}

  /** One batch: the number deleted and where the next batch starts (undefined when done). */
  batch(nowMs: number, from: number): Promise<{ deleted: number; next: number | undefined }> {
    const cutoff = nowMs - QUOTE_PURGE_GRACE_MS;
    // One write: with SQLite a piece of a group-commit batch (it may be applied twice, so it
    // counts afresh each time), with PostgreSQL one short transaction.
    return this.x.write(function* (db, { quotes, leads }) {
      const referenced = exists(db.select({ id: leads.id }).from(leads).where(eq(leads.quoteId, quotes.id)));
      const candidates = yield* rows(
        db
          .select({ id: quotes.id, expiresAt: quotes.expiresAt, referenced: referenced.mapWith(Boolean) })
          .from(quotes)
          .where(and(gte(quotes.expiresAt, from), lt(quotes.expiresAt, cutoff)))
          .orderBy(asc(quotes.expiresAt))
          .limit(QUOTE_PURGE_BATCH),
      );
      const unreferenced = candidates.filter((c) => !c.referenced).map((c) => c.id);
      // The offers go with their quote (they are in its row); the lead check is repeated in the
      // delete, so a lead written since the batch was read keeps its quote.
      const removed = unreferenced.length === 0 ? [] : yield* rows(db.delete(quotes).where(and(inArray(quotes.id, unreferenced), not(referenced))).returning({ id: quotes.id }));
      return { deleted: removed.length, next: nextPurgeStart(from, candidates.length, candidates.at(-1)?.expiresAt ?? from, removed.length) };
    });
  }
}

/** Where the batch after this one starts: undefined when this one was not full. */
function nextPurgeStart(from: number, seen: number, last: number, deleted: number): number | undefined {
  if (seen < QUOTE_PURGE_BATCH) return undefined;
  // A full batch may leave more quotes with the same expiry: start the next one at it again,
  // unless the whole batch was kept quotes of that one instant (then step past it).
  return last === from && deleted === 0 ? last + 1 : last;
}
