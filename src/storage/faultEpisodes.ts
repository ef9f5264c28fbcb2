import type { Logger } from "../log.ts";
import { isBusyLock, storageFaultOf, type StorageFault } from "./storageFault.ts";

/** A faulted database is probed at most this often (/readyz may be polled far more). */
const PROBE_INTERVAL_MS = 1_000;

export const FAULT_DESCRIPTION: Record<StorageFault, string> = {
  full: "the disk or the database is full",
  "read-only": "the database is read-only",
  unavailable: "the database cannot be reached",
};

/**
 * Storage-fault episodes, as both dialects' health keeps them: a failed operation that is a
 * storage fault (full, read-only, unreachable) starts an episode, logged once, not per
 * request; it lasts until a probe (the dialect's own, at most once a second) works again.
 */
export abstract class FaultEpisodes {
  protected fault: StorageFault | undefined;
  private lastProbe = -Infinity;

  constructor(
    protected readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): StorageFault | undefined {
    return this.fault;
  }

  /** Records a failed operation; returns the storage fault it was, or undefined for any other error. */
  report(error: unknown, during: string): StorageFault | undefined {
    const fault = storageFaultOf(error);
    if (fault && fault !== this.fault) {
      this.fault = fault;
      const message = fault === "unavailable" ? "database unreachable: answering 503 until it answers again" : "database writes are failing: answering 503 until they work again";
      this.log.error(message, { fault, during, detail: `${FAULT_DESCRIPTION[fault]} (${error instanceof Error ? error.message : String(error)})` });
    }
    return fault;
  }

  /**
   * A write that is bookkeeping failed (the request went on): a storage fault, a lock held by
   * another process (GroupCommit logs that episode; the write is made again at a later use), or
   * logged as a warning.
   */
  bookkeepingFailed(error: unknown, during: string): void {
    if (this.report(error, during) || isBusyLock(error)) return;
    this.log.warn("bookkeeping write failed; the request went on", { during, error: error instanceof Error ? error.message : String(error) });
  }

  /** Whether to probe now: a fault was seen and the last probe is a second old (or `force`). */
  protected probeDue(force: boolean): boolean {
    const now = this.now();
    if (!force && (!this.fault || now - this.lastProbe < PROBE_INTERVAL_MS)) return false;
    this.lastProbe = now;
    return true;
  }

  /** A probe worked: the episode (if any) is over. */
  protected probeWorked(): void {
    if (this.fault) this.log.info("database writes work again", { after: this.fault });
    this.fault = undefined;
  }

  /**
   * A probe failed: still (or newly) a fault; the lock held by another process (a seed): no
   * news, the episode stays as it is; else an error that is not ours to hide.
   */
  protected probeFailed(error: unknown): void {
    if (isBusyLock(error)) return;
    if (!this.report(error, "write probe")) throw error;
  }
}
