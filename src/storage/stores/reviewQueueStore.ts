import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { row, rows, type Awaitable, type Executor } from "../executor.ts";
import { withModeration, type ReviewWithModeration } from "./reviewModeration.ts";

/** What the moderation queue is filtered by (each optional). */
export interface ReviewQueueFilter {
  state?: "published" | "hidden";
  rating?: number;
  brokerId?: number;
  page: number;
  limit: number;
}

/** A review of the queue, with the broker it is about as the directory now counts it. */
export interface QueuedReview {
  review: ReviewWithModeration;
  broker: { id: number; name: string; slug: string; averageRating: number | null; reviewCount: number };
}

/**
 * Reviews across the whole directory, newest first, in every state: the operator's moderation
 * queue (issue 27 section 4). Each comes with its broker's current rating, which the reviews
 * table's triggers move in the same transaction as a hiding, so the queue shows the effect at once.
 */
export class ReviewQueueStore {
  constructor(private readonly x: Executor) {}

  list(filter: ReviewQueueFilter): Awaitable<{ items: QueuedReview[]; total: number }> {
    const offset = (filter.page - 1) * filter.limit;
    return this.x.read(function* (db, t) {
      const conditions: SQL[] = [];
      if (filter.state) conditions.push(eq(t.reviews.published, filter.state === "published"));
      if (filter.rating !== undefined) conditions.push(eq(t.reviews.rating, filter.rating));
      if (filter.brokerId !== undefined) conditions.push(eq(t.reviews.brokerId, filter.brokerId));
      const where = conditions.length === 0 ? undefined : and(...conditions);
      const total = Number((yield* row(db.select({ n: count() }).from(t.reviews).where(where)))?.n ?? 0);
      if (offset >= total) return { items: [], total };
      const found = yield* rows(db.select().from(t.reviews).where(where).orderBy(desc(t.reviews.createdAt), desc(t.reviews.id)).limit(filter.limit).offset(offset));
      const brokerIds = [...new Set(found.map((r) => r.brokerId))];
      const brokers = yield* rows(
        db
          .select({ id: t.brokers.id, name: t.brokers.name, slug: t.brokers.slug, averageRating: t.brokers.averageRating, reviewCount: t.brokers.reviewCount })
          .from(t.brokers)
          .where(inArray(t.brokers.id, brokerIds)),
      );
      const byId = new Map(brokers.map((b) => [b.id, b]));
      const moderated = yield* withModeration(db, t, found);
      return { items: moderated.map((review) => ({ review, broker: byId.get(review.brokerId)! })), total };
    });
  }
}
