import { and, eq, inArray, isNull, max } from "drizzle-orm";
import type { reviews } from "../../../db/schema.ts";
import type { ReviewRecord } from "../../schemas/directoryRecords.ts";
import { run, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { appendAudit, type NewAuditEntry } from "./directoryAuditStore.ts";
import { PreparedWhereIn } from "./preparedWhereIn.ts";
import { beginReviewBulkLoad, endReviewBulkLoad } from "./sqliteReviewBulkLoad.ts";
import { highestId, insertRows, journalChanges, lockDirectory, skipRowTriggers, rowsWhereIn, runImportOp, type ImportItem, type ImportWrite, type RowOutcome } from "./importBatch.ts";

type StoredReview = typeof reviews.$inferSelect;
type BrokerRef = { id: number; externalId: string | null; slug: string };

/** The fields of a review an import sets (the rest are the directory's: id, published). */
const REVIEW_KEYS = ["brokerId", "authorName", "rating", "title", "body", "createdAt"] as const satisfies readonly (keyof StoredReview)[];
type ReviewFields = Pick<StoredReview, (typeof REVIEW_KEYS)[number]>;

/** The key export gives a review without an externalId. */
const OWN_KEY = /^review:(\d{1,9})$/;


/**
 * Writes imported reviews (issue 27), written once for both dialects: a batch is one
 * transaction. A review is found by the operator's `externalId`; its broker by the broker's
 * `externalId` or slug (a broker the directory lacks is a row error). New reviews are numbered
 * max(id) + 1 under the directory's write lock (lockDirectory): reviews are clustered without a
 * rowid in SQLite, so the writer gives the id. A review whose stored fields equal the record's is
 * not touched. The rating aggregates follow in the same transaction, so they are never out of
 * step with the reviews: each touched broker is recounted once a batch, the row triggers skipped
 * (SQLite: sqliteReviewBulkLoad.ts; PostgreSQL: journalChanges). Every change is on the audit trail.
 * A review's `published` is the directory's (moderation), not the file's: an import publishes a
 * new review and leaves an existing one's as it is.
 */
export class ReviewImportStore {
  private readonly lookups: Lookups;

  constructor(private readonly x: Executor) {
    this.lookups = {
      brokersByExternalId: new PreparedWhereIn(x, (db, { brokers }, keys) => db.select(brokerColumns(brokers)).from(brokers).where(inArray(brokers.externalId, keys))),
      reviewsByExternalId: new PreparedWhereIn(x, (db, { reviews }, keys) => db.select().from(reviews).where(inArray(reviews.externalId, keys))),
    };
  }

  batch(items: readonly ImportItem<ReviewRecord>[], how: ImportWrite): Promise<RowOutcome[]> {
    const { x, lookups } = this;
    return runImportOp(x, how.write, (db, t) => writeBatch(x, db, t, lookups, items, how));
  }
}

/** The lookups every batch makes, by the file's keys (prepared once: PreparedWhereIn). */
interface Lookups {
  brokersByExternalId: PreparedWhereIn<BrokerRef>;
  reviewsByExternalId: PreparedWhereIn<StoredReview>;
}

const brokerColumns = (brokers: Tables["brokers"]) => ({ id: brokers.id, externalId: brokers.externalId, slug: brokers.slug });

function* writeBatch(x: Executor, db: Db, t: Tables, lookups: Lookups, items: readonly ImportItem<ReviewRecord>[], how: ImportWrite): Op<RowOutcome[]> {
  if (how.write) {
    yield* lockDirectory(x, db, t);
    yield* skipRowTriggers(x, db, t);
    yield* beginReviewBulkLoad(x, db, t);
  }
  const { brokers, reviews } = t;
  const brokerExternalIds = [...new Set(items.flatMap(({ record }) => (record.brokerExternalId !== null ? [record.brokerExternalId] : [])))];
  const brokerSlugs = [...new Set(items.flatMap(({ record }) => (record.brokerSlug !== null ? [record.brokerSlug] : [])))];
  const brokerByExternalId = new Map<string, number>();
  for (const broker of yield* lookups.brokersByExternalId.rows(db, brokerExternalIds)) {
    brokerByExternalId.set(broker.externalId!, broker.id);
  }
  const brokerBySlug = new Map<string, number>();
  for (const broker of yield* rowsWhereIn<BrokerRef>(brokerSlugs, (chunk) => db.select(brokerColumns(brokers)).from(brokers).where(inArray(brokers.slug, chunk as string[])))) {
    brokerBySlug.set(broker.slug, broker.id);
  }
  const existing = new Map<string, StoredReview>();
  const keys = items.map(({ record }) => record.externalId);
  for (const review of yield* lookups.reviewsByExternalId.rows(db, keys)) {
    existing.set(review.externalId!, review);
  }
  // A review made without an externalId is exported as `review:<id>` (src/cli/exportRecords.ts):
  // found again by that id, and left without an externalId.
  const byOwnId = keys.flatMap((key) => {
    const id = existing.has(key) ? undefined : OWN_KEY.exec(key)?.[1];
    return id === undefined ? [] : [Number(id)];
  });
  for (const review of yield* rowsWhereIn<StoredReview>(byOwnId, (chunk) => db.select().from(reviews).where(and(inArray(reviews.id, chunk as number[]), isNull(reviews.externalId))))) {
    existing.set(`review:${review.id}`, review);
  }
  let nextId = how.write ? (yield* highestId(db.select({ n: max(reviews.id) }).from(reviews))) + 1 : 0;

  /** New reviews by key, inserted at the end of the batch. */
  const created = new Map<string, StoredReview>();
  const audit: NewAuditEntry[] = [];
  const outcomes: RowOutcome[] = [];
  /** Brokers whose reviews changed (a moved review's old broker too): their aggregates follow. */
  const touched = new Set<number>();
  for (const { line, record } of items) {
    const key = record.externalId;
    const brokerId = record.brokerExternalId !== null ? brokerByExternalId.get(record.brokerExternalId) : brokerBySlug.get(record.brokerSlug!);
    if (brokerId === undefined) {
      const [field, value] = record.brokerExternalId !== null ? ["brokerExternalId", record.brokerExternalId] : ["brokerSlug", record.brokerSlug!];
      const message = `no broker has the ${field === "brokerSlug" ? "slug" : "externalId"} "${value.slice(0, 60)}": import the brokers first, or check the ${field === "brokerSlug" ? "slug" : "id"}`;
      outcomes.push({ line, key, outcome: "failed", errors: [{ line, field, message }] });
      continue;
    }
    const fields: ReviewFields = { brokerId, authorName: record.authorName, rating: record.rating, title: record.title, body: record.content, createdAt: Date.parse(record.createdAt) };
    const stored = existing.get(key);
    if (!stored) {
      const id = how.write ? nextId++ : 0;
      const review: StoredReview = { id, externalId: key, ...fields, published: true };
      created.set(key, review);
      // A review created twice in one batch (a repeated key): the second is an update of the first.
      existing.set(key, review);
      touched.add(brokerId);
      audit.push({ brokerId, reviewId: id, actor: how.actor, at: how.now, action: "created", before: null, after: auditFields(fields), reason: how.reason });
      outcomes.push({ line, key, outcome: "created", id });
      continue;
    }
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const name of REVIEW_KEYS) {
      if (stored[name] !== fields[name]) {
        before[name] = stored[name];
        after[name] = fields[name];
      }
    }
    if (Object.keys(after).length === 0) {
      outcomes.push({ line, key, outcome: "unchanged", id: stored.id });
      continue;
    }
    outcomes.push({ line, key, outcome: "updated", id: stored.id });
    touched.add(stored.brokerId).add(brokerId);
    audit.push({ brokerId, reviewId: stored.id, actor: how.actor, at: how.now, action: "updated", before: auditFields(before), after: auditFields(after), reason: how.reason });
    const pending = created.get(key);
    if (pending) Object.assign(pending, fields);
    else if (how.write) yield* run(db.update(reviews).set(after).where(eq(reviews.id, stored.id)));
    existing.set(key, { ...stored, ...fields });
  }
  if (how.write) {
    yield* insertRows(x, db, reviews, [...created.values()]);
    yield* appendAudit(x, db, t, audit);
    yield* journalChanges(x, db, t, touched, true);
    yield* endReviewBulkLoad(x, db, t, touched);
  }
  return outcomes;
}

/** The audit trail's names for a review's fields: the file's (`content`, an ISO `createdAt`). */
function auditFields(fields: Partial<ReviewFields>): Record<string, unknown> {
  const { body, createdAt, ...rest } = fields;
  return {
    ...rest,
    ...(body === undefined ? {} : { content: body }),
    ...(createdAt === undefined ? {} : { createdAt: new Date(createdAt).toISOString() }),
  };
}
