import { eq, inArray, sql } from "drizzle-orm";
import { run, type Db, type Executor, type Op, type Tables } from "../executor.ts";

/**
 * SQLite only: a reviews import's batch skips the per-row triggers that keep the rating
 * aggregates and the directory version (migration 0018), and does their work once per batch.
 * Row by row, every new review updated its broker, journalled a ratings change and bumped the
 * version: about 40 µs a review, most of a 1.2 million review import (profiled, issue 27).
 *
 * The switch is the `meta` row 'bulk_load', inserted at the start of the batch's transaction and
 * deleted at its end (`endReviewBulkLoad`): no other connection ever sees it, and a batch that
 * fails rolls it back with everything else. PostgreSQL's counterpart is skipRowTriggers.
 */
export function* beginReviewBulkLoad(x: Executor, db: Db, t: Tables): Op<void> {
  if (x.dialect !== "sqlite") return;
  yield* run(db.insert(t.meta).values({ key: BULK_LOAD, value: 1 }).onConflictDoNothing());
}

/**
 * What the skipped triggers would have done: each touched broker's aggregates recounted from its
 * published reviews (one range of the reviews' clustered key; the same rounding as the triggers),
 * which journals one ratings change per broker (brokers_changes_ratings), and the version bumped
 * once. Then the switch is removed, before the transaction commits.
 */
export function* endReviewBulkLoad(x: Executor, db: Db, t: Tables, brokerIds: Iterable<number>): Op<void> {
  if (x.dialect !== "sqlite") return;
  const ids = [...new Set(brokerIds)];
  for (let i = 0; i < ids.length; i += IN_LIST) {
    yield* run(db.update(t.brokers).set(RECOUNT).where(inArray(t.brokers.id, ids.slice(i, i + IN_LIST))));
  }
  if (ids.length > 0) yield* run(db.update(t.meta).set({ value: sql`${t.meta.value} + 1` }).where(eq(t.meta.key, "directory_version")));
  yield* run(db.delete(t.meta).where(eq(t.meta.key, BULK_LOAD)));
}

const BULK_LOAD = "bulk_load";
const IN_LIST = 500;

/** A count over the broker's published reviews; `brokers.id` spelt out, as `id` alone would be the review's. */
const published = (expression: string) => sql.raw(`(SELECT ${expression} FROM reviews WHERE reviews.broker_id = brokers.id AND reviews.published = 1)`);
const RECOUNT = {
  reviewCount: published("count(*)"),
  rating1: published("count(*) FILTER (WHERE rating = 1)"),
  rating2: published("count(*) FILTER (WHERE rating = 2)"),
  rating3: published("count(*) FILTER (WHERE rating = 3)"),
  rating4: published("count(*) FILTER (WHERE rating = 4)"),
  rating5: published("count(*) FILTER (WHERE rating = 5)"),
  averageRating: published("CASE WHEN count(*) = 0 THEN NULL ELSE round(sum(rating) * 1.0 / count(*), 2) END"),
};
