import type { Database } from "bun:sqlite";
import type { Logger } from "../../log.ts";
import { isBusyLock } from "../storageFault.ts";

interface PendingWrite {
  apply: () => unknown;
  /** What `apply` returned in the transaction that committed. */
  result?: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** performance.now() past which a write lock still held elsewhere fails this write. */
  giveUpAt: number;
}

/** How long a write waits for a write lock another process holds, unless the server says otherwise. */
export const DEFAULT_LOCK_WAIT_MS = 2_000;
/** The first retry after a busy lock, doubled at each failure up to the last. */
const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 100;

/** The one GroupCommit of each connection: every store writing through it shares its batches and its lock wait. */
const byConnection = new WeakMap<Database, GroupCommit>();

/**
 * Group commit: the writes handed over during one turn of the event loop are applied in one
 * transaction, committed once, and each caller's promise settles only after that commit, so a
 * write is never acknowledged before it is in the log (the durability promise of the manual's operations page,
 * Durability section is unchanged, whatever `synchronous` says). A commit costs the same for
 * one quote as for thirty (the log pages, a checkpoint now and then): under load it is paid
 * once per batch instead of once per request.
 *
 * A write that throws (a constraint, a bug) is rolled back alone and fails only its own caller;
 * the others commit. The batch is first tried whole, without savepoints (one per write cost
 * about as much as a quote's eight offer rows); only when a write throws is it rolled back and
 * replayed with each write inside its own savepoint, so `apply` must do nothing but run
 * statements: it may run twice. An error that ends the whole transaction (disk full, a
 * read-only file) fails every write of the batch with that error, so each request answers as
 * it would have alone (503 for a storage fault).
 *
 * The write lock is taken first (BEGIN IMMEDIATE). When another process holds it (a `seed`, a
 * CLI command), the batch is not waited for here: SQLite's busy wait is a sleep of the thread,
 * which would freeze every request. The serving connection waits only a few milliseconds
 * (database.ts), and the batch is tried again from a timer, backing off from 5 to 100 ms, while
 * requests go on; a write still locked out after the lock wait fails with SQLITE_BUSY (503 and
 * Retry-After, errorVocabulary). That episode is logged once.
 *
 * The batch runs synchronously, from BEGIN to COMMIT, in one callback: no other code using the
 * connection can run in between.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  /** A flush is due (next turn, or after a back-off): new writes just join it. */
  private scheduled = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private backoffMs = 0;
  private lockWaitMs = DEFAULT_LOCK_WAIT_MS;
  private log: Logger | undefined;
  /** Writes were refused for a lock held too long, and none has committed since. */
  private lockedOut = false;
  private readonly begin;
  private readonly savepoint;
  private readonly release;
  private readonly rollbackTo;
  private readonly commit;

  /** The connection's one GroupCommit (made on first use). */
  static of(client: Database): GroupCommit {
    let writes = byConnection.get(client);
    if (!writes) byConnection.set(client, (writes = new GroupCommit(client)));
    return writes;
  }

  constructor(private readonly client: Database) {
    this.begin = client.prepare("BEGIN IMMEDIATE");
    this.savepoint = client.prepare("SAVEPOINT group_write");
    this.release = client.prepare("RELEASE group_write");
    this.rollbackTo = client.prepare("ROLLBACK TO group_write");
    this.commit = client.prepare("COMMIT");
  }

  /** How long a write waits for a lock held by another process before it fails; where that is logged. */
  waitForLocks(lockWaitMs: number, log: Logger): void {
    this.lockWaitMs = lockWaitMs;
    this.log = log;
  }

  /**
   * Runs `apply` (synchronous statements, no transaction of its own) in the next batch;
   * resolves with what it returned, once committed.
   */
  write<T>(apply: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ apply, resolve: resolve as (value: unknown) => void, reject, giveUpAt: performance.now() + this.lockWaitMs });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O phase: every request read in this turn has had its chance to join.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is pending now. */
  flush(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 0) return;
    const failure = this.applyAll(batch);
    if (failure === undefined) {
      this.committed();
      for (const write of batch) write.resolve(write.result);
    } else if (isBusyLock(failure.error)) {
      this.retryLater(batch, failure.error);
    } else if (batch.length === 1 || failure.atBegin) {
      // Alone in its batch, its error is its own (a savepoint would only say the same again);
      // refused the transaction itself (a read-only file), no write ran: each fails with that.
      for (const write of batch) write.reject(failure.error);
    } else {
      this.applyEachInSavepoint(batch);
    }
  }

  /** The lock is held elsewhere: the writes past their wait fail, the others are tried again after a back-off. */
  private retryLater(batch: PendingWrite[], busy: unknown): void {
    const now = performance.now();
    const waiting = batch.filter((write) => write.giveUpAt > now);
    if (waiting.length < batch.length) {
      if (!this.lockedOut) this.log?.warn("database write lock held by another process past the lock wait: writes answer 503 until it is released", { lockWaitMs: this.lockWaitMs });
      this.lockedOut = true;
      for (const write of batch) if (write.giveUpAt <= now) write.reject(busy);
    }
    if (waiting.length === 0) return;
    // Nothing ran between the attempt and here (it is all synchronous): the batch is still first.
    this.pending = waiting;
    this.scheduled = true;
    this.backoffMs = Math.min(this.backoffMs === 0 ? FIRST_RETRY_MS : this.backoffMs * 2, LONGEST_RETRY_MS);
    // One last try at the earliest deadline, so no write waits longer than its lock wait.
    const firstDeadline = Math.min(...waiting.map((write) => write.giveUpAt));
    this.retryTimer = setTimeout(() => this.flush(), Math.max(0, Math.min(this.backoffMs, firstDeadline - now)));
  }

  private committed(): void {
    this.backoffMs = 0;
    if (this.lockedOut) this.log?.info("database write lock released: writes commit again");
    this.lockedOut = false;
  }

  /** The whole batch in one transaction; on any error, rolled back and that error returned. */
  private applyAll(batch: readonly PendingWrite[]): { error: unknown; atBegin: boolean } | undefined {
    try {
      this.begin.run();
    } catch (error) {
      return { error, atBegin: true };
    }
    try {
      for (const write of batch) write.result = write.apply();
      this.commit.run();
      return undefined;
    } catch (error) {
      this.rollbackIfOpen();
      return { error, atBegin: false };
    }
  }

  /** The slow path after a failure: a write that throws is rolled back to its savepoint and fails alone. */
  private applyEachInSavepoint(batch: readonly PendingWrite[]): void {
    const applied: PendingWrite[] = [];
    let failedAll: unknown;
    try {
      this.begin.run();
      for (const write of batch) {
        this.savepoint.run();
        try {
          write.result = write.apply();
          this.release.run();
          applied.push(write);
        } catch (error) {
          // Some errors (SQLITE_FULL, an I/O error) roll the whole transaction back themselves.
          if (!this.client.inTransaction) throw error;
          this.rollbackTo.run();
          this.release.run();
          write.reject(error);
        }
      }
      this.commit.run();
    } catch (error) {
      failedAll = error;
      this.rollbackIfOpen();
    }
    if (failedAll === undefined) {
      this.committed();
      for (const write of applied) write.resolve(write.result);
      return;
    }
    // Nothing of this batch was committed. A promise settles once: a write already refused on
    // its own keeps its own error; every other one fails with the cause.
    for (const write of batch) write.reject(failedAll);
  }

  private rollbackIfOpen(): void {
    if (!this.client.inTransaction) return;
    try {
      this.client.run("ROLLBACK");
    } catch {
      // The transaction is gone either way; the error that matters is the first one.
    }
  }
}
