import { and, asc, eq, inArray } from "drizzle-orm";
import type { reviews } from "../../../db/schema.ts";
import { rows, type Db, type Op, type Tables } from "../executor.ts";
import type { AuditEntry } from "./directoryAuditStore.ts";

type StoredReview = typeof reviews.$inferSelect;

/** A review as the write API lists it: with why it is hidden, when it is (its latest hiding on the audit trail). */
export type ReviewWithModeration = StoredReview & { hidden: { reason: string | null; note: string | null; at: number } | null };

/**
 * Each review with why it is hidden when it is: its latest `hidden` entry on the audit trail.
 * The entries are looked up by their brokers too, which the audit table is indexed by.
 */
export function* withModeration(db: Db, { directoryAudit }: Tables, found: StoredReview[]): Op<ReviewWithModeration[]> {
  const hidden = found.filter((r) => !r.published);
  const hidings = new Map<number, AuditEntry>();
  if (hidden.length > 0) {
    const brokerIds = [...new Set(hidden.map((r) => r.brokerId))];
    const entries = yield* rows(
      db
        .select()
        .from(directoryAudit)
        .where(and(inArray(directoryAudit.brokerId, brokerIds), inArray(directoryAudit.reviewId, hidden.map((r) => r.id)), eq(directoryAudit.action, "hidden")))
        .orderBy(asc(directoryAudit.id)),
    );
    for (const entry of entries) hidings.set(entry.reviewId!, entry);
  }
  return found.map((review) => {
    if (review.published) return { ...review, hidden: null };
    const hiding = hidings.get(review.id);
    const said = (name: string) => (typeof hiding?.after?.[name] === "string" ? (hiding.after[name] as string) : null);
    return { ...review, hidden: { reason: said("reason"), note: said("note"), at: hiding?.at ?? 0 } };
  });
}
