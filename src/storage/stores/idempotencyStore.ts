import { and, asc, count, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
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
 * Claims a request's key inside the write that creates what the request asked for: `yield*`
 * `claim` first, and write the resource only when it answers undefined. Otherwise the key is held
 * by a live record (another request with the same key, committed first, or in PostgreSQL, waited
 * for at the unique key until it committed) and that record is returned: the caller writes
 * nothing and answers from it. A record past the window is taken over in place (SET from
 * `excluded`, the row that was refused: the same in both dialects). Both statements
 * are prepared (Executor.prepare): every keyed lead, quote and key creation runs them.
 */
export class KeyClaims {
  private readonly take;
  private readonly holder;

  constructor(x: Executor) {
    const p = (name: keyof IdempotencyRecord | "staleBefore") => sql.placeholder(name);
    this.take = x.prepare((db, { idempotencyRecords: r }) =>
      db
        .insert(r)
        .values({ workspaceId: p("workspaceId"), key: p("key"), fingerprint: p("fingerprint"), answer: p("answer"), createdAt: p("createdAt") })
        .onConflictDoUpdate({ target: [r.workspaceId, r.key], set: { fingerprint: sql`excluded.fingerprint`, answer: sql`excluded.answer`, createdAt: sql`excluded.created_at` }, setWhere: lte(r.createdAt, p("staleBefore")) })
        .returning({ key: r.key }),
    );
    this.holder = x.prepare((db, { idempotencyRecords: r }) => db.select().from(r).where(and(eq(r.workspaceId, p("workspaceId")), eq(r.key, p("key")))));
  }

  *claim(db: Db, record: IdempotencyRecord): Op<IdempotencyRecord | undefined> {
    const claimed = yield* rows(this.take.bind(db, { ...record, staleBefore: record.createdAt - IDEMPOTENCY_WINDOW_MS }));
    if (claimed.length > 0) return undefined;
    return yield* row(this.holder.bind(db, { workspaceId: record.workspaceId, key: record.key }));
  }
}

/**
 * The first answers of a workspace's idempotency keys (the manual's idempotency page), over
 * either dialect. They are written by the stores of what they answer for (leads, quotes, keys),
 * through KeyClaims, in the same transaction; this store reads and purges them.
 */
export class IdempotencyStore {
  /** A live record by its key: asked before every keyed write, so prepared (Executor.prepare). */
  private readonly live;

  constructor(
    private readonly x: Executor,
    /** Records a workspace keeps at most (a test makes it small). */
    private readonly perWorkspace = IDEMPOTENCY_RECORDS_PER_WORKSPACE,
  ) {
    this.live = x.prepare((db, { idempotencyRecords: r }) =>
      db.select().from(r).where(and(eq(r.workspaceId, sql.placeholder("workspaceId")), eq(r.key, sql.placeholder("key")), gt(r.createdAt, sql.placeholder("after")))),
    );
  }

  /** The key's record in the workspace while it is live (younger than the window), else undefined. */
  find(workspaceId: string, key: string, now: number): Awaitable<IdempotencyRecord | undefined> {
    return this.x.row((db) => this.live.bind(db, { workspaceId, key, after: now - IDEMPOTENCY_WINDOW_MS }));
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
