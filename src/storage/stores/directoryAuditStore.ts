import { count, desc, eq } from "drizzle-orm";
import type { directoryAudit } from "../../../db/schema.ts";
import { row, rows, type Awaitable, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { insertRows } from "./importBatch.ts";

export type AuditEntry = typeof directoryAudit.$inferSelect;
export type NewAuditEntry = Omit<AuditEntry, "id">;
/** Brokers: created, updated, published, unpublished; reviews: created, updated, hidden, restored. */
export type AuditAction = "created" | "updated" | "published" | "unpublished" | "hidden" | "restored";

/** Who made a change, as the audit trail names them. */
export const CLI_ACTOR = "cli";

/**
 * Appends audit entries inside the caller's write (one transaction with the change itself, so a
 * change is never on record without having happened, nor the other way round).
 */
export function* appendAudit(x: Executor, db: Db, t: Tables, entries: readonly NewAuditEntry[]): Op<void> {
  yield* insertRows(x, db, t.directoryAudit, entries);
}

export interface AuditPage {
  items: AuditEntry[];
  total: number;
}

/**
 * The directory's audit trail (issue 27 section 3), over either dialect: who changed a broker or
 * its reviews, when, the fields before and after, and why. Append-only: entries are written by
 * the writers of the directory in their own transactions (appendAudit), never changed (a trigger
 * refuses an UPDATE or DELETE in both dialects); this store only reads them.
 */
export class DirectoryAuditStore {
  constructor(private readonly x: Executor) {}

  /** A broker's history, newest first, `limit` entries a page (1-indexed). */
  historyOf(brokerId: number, page: number, limit: number): Awaitable<AuditPage> {
    const offset = (page - 1) * limit;
    return this.x.read(function* (db, { directoryAudit }) {
      const where = eq(directoryAudit.brokerId, brokerId);
      const total = (yield* row(db.select({ n: count() }).from(directoryAudit).where(where)))?.n ?? 0;
      const items = offset >= total ? [] : yield* rows(db.select().from(directoryAudit).where(where).orderBy(desc(directoryAudit.id)).limit(limit).offset(offset));
      return { items, total };
    });
  }
}
