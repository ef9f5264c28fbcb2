import { and, asc, count, desc, eq, gt, inArray, lte } from "drizzle-orm";
import type { idempotencyRecords } from "../../../db/schema.ts";
import { row, rows, type Awaitable, type Db, type Executor, type Op, type Tables } from "../executor.ts";

/** How long a key keeps its first answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Records a workspace keeps at most: past it, the purge drops its oldest first (their keys then
 * create afresh), so one workspace cannot grow the table without end whatever its rate limits.
 */
export const IDEMPOTENCY_RECORDS_PER_WORKSPACE = 100_000;
/** Records deleted per transaction by the purge: a batch holds the write lock for milliseconds. */
export const IDEMPOTENCY_PURGE_BATCH = 1_000;

export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;

/**
 * Claims the record's key inside the write that creates what the request asked for: `yield*`
 * it first, and write the resource only when it answers undefined. Otherwise the key is held by
 * a live record (another request with the same key, committed first, or in PostgreSQL, waited
 * for at the unique key until it committed) and that record is returned: the caller writes
 * nothing and answers from it. A record past the window is taken over in place.
 */
export function* claimKey(db: Db, { idempotencyRecords: r }: Tables, record: IdempotencyRecord): Op<IdempotencyRecord | undefined> {
  const { fingerprint, answer, createdAt } = record;
  const claimed = yield* rows(
    db
      .insert(r)
      .values(record)
      .onConflictDoUpdate({ target: [r.workspaceId, r.key], set: { fingerprint, answer, createdAt }, setWhere: lte(r.createdAt, createdAt - IDEMPOTENCY_WINDOW_MS) })
      .returning({ key: r.key }),
  );
  if (claimed.length > 0) return undefined;
  return yield* row(db.select().from(r).where(and(eq(r.workspaceId, record.workspaceId), eq(r.key, record.key))));
}

/**
 * The first answers of a workspace's idempotency keys (the manual's idempotency page), over
 * either dialect. They are written by the stores of what they answer for (leads, quotes, keys),
 * through claimKey, in the same transaction; this store reads and purges them.
 */
export class IdempotencyStore {
  constructor(
    private readonly x: Executor,
    /** Records a workspace keeps at most (a test makes it small). */
    private readonly perWorkspace = IDEMPOTENCY_RECORDS_PER_WORKSPACE,
  ) {}

  /** The key's record in the workspace while it is live (younger than the window), else undefined. */
  find(workspaceId: string, key: string, now: number): Awaitable<IdempotencyRecord | undefined> {
    const { idempotencyRecords: r } = this.x.t;
    return this.x.row((db) => db.select().from(r).where(and(eq(r.workspaceId, workspaceId), eq(r.key, key), gt(r.createdAt, now - IDEMPOTENCY_WINDOW_MS))));
  }

  /** Deletes one batch of records past the window, oldest first; the number deleted (a full batch: call again). */
  purgeBatch(now: number): Promise<number> {
    return this.x.write(function* (db, { idempotencyRecords: r }) {
      const old = yield* rows(
        db
          .select({ workspaceId: r.workspaceId, key: r.key })
          .from(r)
          .where(lte(r.createdAt, now - IDEMPOTENCY_WINDOW_MS))
          .orderBy(asc(r.createdAt))
          .limit(IDEMPOTENCY_PURGE_BATCH),
      );
      return yield* deleteRecords(db, r, old);
    });
  }

  /** The workspaces holding more records than the cap: a read, so its scan of the table takes no write lock. */
  overCap(): Awaitable<{ workspaceId: string }[]> {
    const { idempotencyRecords: r } = this.x.t;
    return this.x.rows((db) => db.select({ workspaceId: r.workspaceId }).from(r).groupBy(r.workspaceId).having(gt(count(), this.perWorkspace)));
  }

  /** Deletes one batch of the workspace's oldest records beyond the cap; the number deleted (a full batch: call again). */
  trimBatch(workspaceId: string): Promise<number> {
    const { perWorkspace } = this;
    return this.x.write(function* (db, { idempotencyRecords: r }) {
      const excess = yield* rows(
        db
          .select({ workspaceId: r.workspaceId, key: r.key })
          .from(r)
          .where(eq(r.workspaceId, workspaceId))
          .orderBy(desc(r.createdAt))
          .offset(perWorkspace)
          .limit(IDEMPOTENCY_PURGE_BATCH),
      );
      return yield* deleteRecords(db, r, excess);
    });
  }
}

/** Deletes the records named, a workspace at a time; the number deleted. */
function* deleteRecords(db: Db, r: Tables["idempotencyRecords"], records: readonly { workspaceId: string; key: string }[]): Op<number> {
  const byWorkspace = new Map<string, string[]>();
  for (const { workspaceId, key } of records) {
    const keys = byWorkspace.get(workspaceId);
    if (keys) keys.push(key);
    else byWorkspace.set(workspaceId, [key]);
  }
  let deleted = 0;
  for (const [workspaceId, keys] of byWorkspace) {
    deleted += (yield* rows(db.delete(r).where(and(eq(r.workspaceId, workspaceId), inArray(r.key, keys))).returning({ key: r.key }))).length;
  }
  return deleted;
}
