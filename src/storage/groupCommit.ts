import type { Database } from "bun:sqlite";

interface PendingWrite {
  apply: () => void;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the writes handed over during one turn of the event loop are applied in one
 * transaction, committed once, and each caller's promise settles only after that commit, so a
 * write is never acknowledged before it is in the log (the durability promise of README's
 * Durability section is unchanged, whatever `synchronous` says). A commit costs the same for
 * one quote as for thirty (the log pages, a checkpoint now and then): under load it is paid
 * once per batch instead of once per request.
 *
 * A write that throws (a constraint, a bug) is rolled back alone and fails only its own caller;
 * the others commit. The batch is first tried whole, without savepoints (one per write cost
 * about as much as a quote's eight offer rows); only when a write throws is it rolled back and
 * replayed with each write inside its own savepoint, so `apply` must do nothing but run
 * statements: it may run twice. An error that ends the whole transaction (disk full, a
 * read-only file, a lock not obtained) fails every write of the batch with that error, so each
 * request answers as it would have alone (503 for a storage fault).
 *
 * The batch runs synchronously, from BEGIN to COMMIT, in one callback: no other code using the
 * connection can run in between.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  private readonly begin;
  private readonly savepoint;
  private readonly release;
  private readonly rollbackTo;
  private readonly commit;

  constructor(private readonly client: Database) {
    this.begin = client.prepare("BEGIN");
    this.savepoint = client.prepare("SAVEPOINT group_write");
    this.release = client.prepare("RELEASE group_write");
    this.rollbackTo = client.prepare("ROLLBACK TO group_write");
    this.commit = client.prepare("COMMIT");
  }

  /** Runs `apply` (synchronous statements, no transaction of its own) in the next batch. */
  write(apply: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ apply, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O phase: every request read in this turn has had its chance to join.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is pending now. */
  flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 0) return;
    const failure = this.applyAll(batch);
    if (failure === undefined) {
      for (const write of batch) write.resolve();
    } else if (batch.length === 1) {
      // Alone in its batch, its error is its own (a savepoint would only say the same again).
      batch[0]!.reject(failure.error);
    } else {
      this.applyEachInSavepoint(batch);
    }
  }

  /** The whole batch in one transaction; on any error, rolled back and that error returned. */
  private applyAll(batch: readonly PendingWrite[]): { error: unknown } | undefined {
    try {
      this.begin.run();
      for (const write of batch) write.apply();
      this.commit.run();
      return undefined;
    } catch (error) {
      this.rollbackIfOpen();
      return { error };
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
          write.apply();
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
      for (const write of applied) write.resolve();
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
