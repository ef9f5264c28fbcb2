import type { DirectoryDb } from "../sqlite/database.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";

/**
 * How long a quote is kept after it expires: it stays readable (with `expired: true`) for this
 * long, then the purge deletes it with its offers. A quote a lead refers to is kept as long as
 * the lead (leads are the workspace's records; their quoteId must keep resolving).
 */
export const QUOTE_PURGE_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/** Quotes examined per transaction: a batch holds the write lock for a few milliseconds only. */
export const QUOTE_PURGE_BATCH = 500;

interface Candidate {
  id: string;
  expiresAt: number;
  referenced: number;
}

/**
 * Deletes quotes past expiry plus the grace, one batch per call, oldest expiry first (the
 * quotes_expires index), so the caller can yield to the event loop between batches. `from` is
 * where the previous batch stopped: quotes kept because a lead refers to them are not walked
 * again within one run.
 */
export class QuotePurge {
  private readonly candidates;
  private readonly remove;
  private readonly writes: GroupCommit;

  constructor(db: DirectoryDb) {
    this.writes = GroupCommit.of(db.$client);
    this.candidates = db.$client.query<Candidate, { from: number; cutoff: number; limit: number }>(
      `SELECT q.id AS id, q.expires_at AS expiresAt,
              EXISTS (SELECT 1 FROM leads l WHERE l.quote_id = q.id) AS referenced
         FROM quotes q
        WHERE q.expires_at >= $from AND q.expires_at < $cutoff
        ORDER BY q.expires_at
        LIMIT $limit`,
    );
    // The offers go with their quote (ON DELETE CASCADE); the lead check is repeated inside the
    // write, so a lead written since the batch was read keeps its quote.
    this.remove = db.$client.query<never, { id: string }>(
      "DELETE FROM quotes WHERE id = $id AND NOT EXISTS (SELECT 1 FROM leads WHERE quote_id = $id)",
    );
  }

  /** One batch: the number deleted and where the next batch starts (undefined when done). */
  batch(nowMs: number, from: number): Promise<{ deleted: number; next: number | undefined }> {
    const cutoff = nowMs - QUOTE_PURGE_GRACE_MS;
    // A write batch (GroupCommit): it may be applied twice, so it counts afresh each time.
    return this.writes.write(() => {
      let deleted = 0;
      let last = from;
      let seen = 0;
      for (const candidate of this.candidates.all({ from, cutoff, limit: QUOTE_PURGE_BATCH })) {
        seen++;
        last = candidate.expiresAt;
        // changes also counts the cascaded offers: one quote gone is one.
        if (!candidate.referenced && this.remove.run({ id: candidate.id }).changes > 0) deleted++;
      }
      return { deleted, next: nextPurgeStart(from, seen, last, deleted) };
    });
  }
}

/** Where the batch after this one starts (both dialects): undefined when this one was not full. */
export function nextPurgeStart(from: number, seen: number, last: number, deleted: number): number | undefined {
  if (seen < QUOTE_PURGE_BATCH) return undefined;
  // A full batch may leave more quotes with the same expiry: start the next one at it again,
  // unless the whole batch was kept quotes of that one instant (then step past it).
  return last === from && deleted === 0 ? last + 1 : last;
}
