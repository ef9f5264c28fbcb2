import { and, asc, count, desc, eq, inArray, max, or, sql, type SQL } from "drizzle-orm";
import type { brokerLocations, reviews } from "../../../db/schema.ts";
import { foldText } from "../../domain/text.ts";
import type { BrokerRecord } from "../../schemas/directoryRecords.ts";
import { row, rows, run, type Awaitable, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { runImport, type ImportKind, type ReportLine } from "./importRun.ts";
import type { ImportSummary } from "../../importing/importSummary.ts";
import { BrokerImportStore, writeBrokerBatch } from "./brokerImportStore.ts";
import { KeyClaims, type IdempotencyRecord } from "./idempotencyStore.ts";
import { KeyHeldError, unlessHeld, type OrHeld } from "./keyHeld.ts";
import { appendAudit, DirectoryAuditStore, type AuditEntry, type AuditPage } from "./directoryAuditStore.ts";
import { highestId, lockDirectory, type ImportWrite, type RowOutcome } from "./importBatch.ts";
import type { StoredBroker } from "./importedBroker.ts";
import { importPart, type ImportPart, type ImportPartResult } from "./importPart.ts";
import { ReviewQueueStore } from "./reviewQueueStore.ts";
import { withModeration, type ReviewWithModeration } from "./reviewModeration.ts";

export type { ReviewWithModeration };

export type StoredReview = typeof reviews.$inferSelect;
export type StoredOfficeRow = typeof brokerLocations.$inferSelect;

/** Who writes and why: the audit trail's actor and reason. */
export interface DirectoryWrite {
  actor: string;
  reason: string;
  now: number;
}

export interface BrokerWithOffices {
  broker: StoredBroker;
  offices: StoredOfficeRow[];
}

export interface BrokerListFilter {
  state?: "published" | "unpublished";
  q?: string;
  externalId?: string;
  page: number;
  limit: number;
}


/** What a new review carries (its id and `published` are the directory's). */
export interface NewReview {
  externalId: string | null;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  createdAt: number;
}

/** `like` pattern text, its wildcards taken literally (escape character `\`, both dialects). */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The directory's write API (issue 27 section 2), over either dialect: brokers are written by
 * the import's own writer (BrokerImportStore, one record a batch), so the rules are the same
 * (slug, externalId, offices and their coordinates, unchanged detection) and every change goes
 * on the audit trail in its transaction. Publishing and review moderation change one column:
 * the tables' own triggers keep the rating aggregates, the change journal and the directory
 * version, so every read surface follows as after any write.
 */
export class DirectoryWriteStore {
  private readonly brokerWriter: BrokerImportStore;
  readonly audit: DirectoryAuditStore;
  /** Reviews across the directory, for the console's moderation queue. */
  readonly reviewQueue: ReviewQueueStore;

  private readonly claims: KeyClaims;

  constructor(private readonly x: Executor) {
    this.brokerWriter = new BrokerImportStore(x);
    this.claims = new KeyClaims(x);
    this.audit = new DirectoryAuditStore(x);
    this.reviewQueue = new ReviewQueueStore(x);
  }

  /** A broker in any state, with its offices (primary first). */
  findBroker(id: number): Awaitable<BrokerWithOffices | undefined> {
    return this.x.read((db, t) => brokerWithOffices(db, t, id));
  }

  /** Brokers in every state, by id, with the filters; each with its offices. */
  listBrokers(filter: BrokerListFilter): Awaitable<{ items: BrokerWithOffices[]; total: number }> {
    const offset = (filter.page - 1) * filter.limit;
    return this.x.read(function* (db, { brokers, brokerLocations }) {
      const conditions: SQL[] = [];
      if (filter.state) conditions.push(eq(brokers.published, filter.state === "published"));
      if (filter.externalId !== undefined) conditions.push(eq(brokers.externalId, filter.externalId));
      if (filter.q !== undefined && filter.q.trim() !== "") {
        const pattern = `%${likeText(foldText(filter.q.trim()))}%`;
        conditions.push(or(sql`${brokers.sortName} like ${pattern} escape '\\'`, sql`${brokers.slug} like ${pattern} escape '\\'`)!);
      }
      const where = conditions.length === 0 ? undefined : and(...conditions);
      const total = Number((yield* row(db.select({ n: count() }).from(brokers).where(where)))?.n ?? 0);
      if (offset >= total) return { items: [], total };
      const page = yield* rows(db.select().from(brokers).where(where).orderBy(asc(brokers.id)).limit(filter.limit).offset(offset));
      const ids = page.map((b) => b.id);
      const offices = ids.length === 0 ? [] : yield* rows(db.select().from(brokerLocations).where(inArray(brokerLocations.brokerId, ids)).orderBy(desc(brokerLocations.isPrimary), asc(brokerLocations.id)));
      return { items: page.map((broker) => ({ broker, offices: offices.filter((o) => o.brokerId === broker.id) })), total };
    });
  }

  /** Creates (`target` "new") or rewrites broker `target` from a whole record, as the import writes one. */
  async saveBroker(record: BrokerRecord, target: number | "new", how: DirectoryWrite): Promise<RowOutcome> {
    const [outcome] = await this.brokerWriter.batch([{ line: 1, record, target }], { ...how, write: true });
    return outcome!;
  }

  /**
   * Creates a broker from a whole record (the write API's POST). With `recordOf` (an
   * Idempotency-Key was sent), the key is claimed in the same transaction with the answer made
   * from the broker as written: `held` when another request holds it, and then nothing is created.
   */
  createBroker(record: BrokerRecord, how: DirectoryWrite, recordOf?: (created: BrokerWithOffices) => IdempotencyRecord): Promise<OrHeld<{ outcome: RowOutcome; created?: BrokerWithOffices }>> {
    const { x, claims } = this;
    return unlessHeld(
      x.write(function* (db, t) {
        const [outcome] = yield* writeBrokerBatch(x, db, t, [{ line: 1, record, target: "new" }], { ...how, write: true });
        if (outcome!.outcome === "failed") return { outcome: outcome! };
        const created = (yield* brokerWithOffices(db, t, outcome!.id))!;
        const held = recordOf ? yield* claims.claim(db, recordOf(created)) : undefined;
        if (held) throw new KeyHeldError(held);
        return { outcome: outcome!, created };
      }),
    );
  }

  /** Publishes or unpublishes a broker; false when it is already so (nothing written, nothing on record). */
  setPublished(id: number, published: boolean, how: DirectoryWrite): Promise<boolean> {
    const { x } = this;
    return x.write(function* (db, t) {
      const changed = yield* rows(
        db.update(t.brokers).set({ published, updatedAt: how.now }).where(and(eq(t.brokers.id, id), eq(t.brokers.published, !published))).returning({ id: t.brokers.id }),
      );
      if (changed.length === 0) return false;
      yield* appendAudit(x, db, t, [
        { brokerId: id, reviewId: null, actor: how.actor, at: how.now, action: published ? "published" : "unpublished", before: { published: !published }, after: { published }, reason: how.reason },
      ]);
      return true;
    });
  }

  /** A broker's reviews in every state, newest first, with why a hidden one is hidden. */
  listReviews(brokerId: number, page: number, limit: number): Awaitable<{ items: ReviewWithModeration[]; total: number }> {
    const offset = (page - 1) * limit;
    return this.x.read(function* (db, t) {
      const where = eq(t.reviews.brokerId, brokerId);
      const total = Number((yield* row(db.select({ n: count() }).from(t.reviews).where(where)))?.n ?? 0);
      if (offset >= total) return { items: [], total };
      const found = yield* rows(db.select().from(t.reviews).where(where).orderBy(desc(t.reviews.createdAt), desc(t.reviews.id)).limit(limit).offset(offset));
      return { items: yield* withModeration(db, t, found), total };
    });
  }

  /** These reviews of a broker, with their moderation. */
  listReviewsById(brokerId: number, ids: number[]): Awaitable<{ items: ReviewWithModeration[] }> {
    return this.x.read(function* (db, t) {
      const found = yield* rows(db.select().from(t.reviews).where(and(eq(t.reviews.brokerId, brokerId), inArray(t.reviews.id, ids))));
      return { items: yield* withModeration(db, t, found) };
    });
  }

  findReview(id: number): Awaitable<StoredReview | undefined> {
    return this.x.row((db, { reviews }) => db.select().from(reviews).where(eq(reviews.id, id)));
  }

  /**
   * Adds an operator-collected review, published; numbered max(id) + 1 under the directory's
   * write lock as the import numbers them. "externalId" when another review holds it already.
   * With `recordOf`, the request's idempotency key is claimed in the same transaction, as createBroker does.
   */
  addReview(brokerId: number, review: NewReview, how: DirectoryWrite, recordOf?: (stored: StoredReview) => IdempotencyRecord): Promise<OrHeld<StoredReview | "externalId">> {
    const { x, claims } = this;
    return unlessHeld(x.write(function* (db, t) {
      yield* lockDirectory(x, db, t);
      if (review.externalId !== null && (yield* row(db.select({ id: t.reviews.id }).from(t.reviews).where(eq(t.reviews.externalId, review.externalId))))) return "externalId" as const;
      const id = (yield* highestId(db.select({ n: max(t.reviews.id) }).from(t.reviews))) + 1;
      const stored: StoredReview = { id, brokerId, ...review, published: true };
      yield* run(db.insert(t.reviews).values(stored));
      const { body, createdAt, ...rest } = review;
      yield* appendAudit(x, db, t, [
        { brokerId, reviewId: id, actor: how.actor, at: how.now, action: "created", before: null, after: { ...rest, content: body, createdAt: new Date(createdAt).toISOString(), published: true }, reason: how.reason },
      ]);
      const held = recordOf ? yield* claims.claim(db, recordOf(stored)) : undefined;
      if (held) throw new KeyHeldError(held);
      return stored;
    }));
  }

  /** Hides (published false) or restores a review; false when it is already so. Its text is never touched. */
  setReviewPublished(review: StoredReview, published: boolean, how: DirectoryWrite, why: Record<string, unknown> = {}): Promise<boolean> {
    const { x } = this;
    return x.write(function* (db, t) {
      const changed = yield* rows(
        db.update(t.reviews).set({ published }).where(and(eq(t.reviews.id, review.id), eq(t.reviews.published, !published))).returning({ id: t.reviews.id }),
      );
      if (changed.length === 0) return false;
      yield* appendAudit(x, db, t, [
        { brokerId: review.brokerId, reviewId: review.id, actor: how.actor, at: how.now, action: published ? "restored" : "hidden", before: { published: !published }, after: { published, ...why }, reason: how.reason },
      ]);
      return true;
    });
  }

  /**
   * Imports records sent in a request (`POST /api/v1/directory/import`) exactly as `import` reads
   * a file: they go through the import's reader (as NDJSON, one record a line, so a row's `line`
   * is its position in the list), its checks, batches and writers. No `--sync`.
   */
  async importRecords(kind: ImportKind, records: readonly unknown[], how: DirectoryWrite & { write: boolean }): Promise<{ summary: ImportSummary; rows: ReportLine[] }> {
    const text = new TextEncoder().encode(records.map((record) => JSON.stringify(record)).join("\n") + "\n");
    const rows: ReportLine[] = [];
    const { summary } = await runImport(this.x, {
      kind,
      input: { bytes: (async function* () { yield text; })(), name: "request.ndjson" },
      how: { ...how },
      sync: false,
      onReport: (line) => rows.push(line),
    });
    return { summary, rows };
  }

  /** Imports one part of a file sent in parts (the console's upload), as `import` reads a file. */
  importPart(kind: ImportKind, part: ImportPart, how: ImportWrite): Promise<ImportPartResult> {
    return importPart(this.x, kind, part, how);
  }

  historyOf(brokerId: number, page: number, limit: number): Awaitable<AuditPage> {
    return this.audit.historyOf(brokerId, page, limit);
  }
}

/** A broker in any state with its offices (primary first), inside a read or a write. */
function* brokerWithOffices(db: Db, { brokers, brokerLocations }: Tables, id: number): Op<BrokerWithOffices | undefined> {
  const broker = yield* row(db.select().from(brokers).where(eq(brokers.id, id)));
  if (!broker) return undefined;
  const offices = yield* rows(db.select().from(brokerLocations).where(eq(brokerLocations.brokerId, id)).orderBy(desc(brokerLocations.isPrimary), asc(brokerLocations.id)));
  return { broker, offices };
}
