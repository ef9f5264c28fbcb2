import type { Logger } from "../log.ts";
import type { DirectoryDb } from "./database.ts";
import { isFullyMigrated } from "./migrate.ts";
import { probeWrite, storageFaultOf, type StorageFault } from "./storageFault.ts";

/** /readyz probes a faulted database at most this often. */
const PROBE_INTERVAL_MS = 1_000;

export const FAULT_DESCRIPTION: Record<StorageFault, string> = {
  full: "the disk or the database is full",
  "read-only": "the database is read-only",
  unavailable: "the database cannot be reached",
};

/** What /readyz says of the database (src/ops/readiness.ts adds the lifecycle). */
export interface DatabaseChecks {
  database: "ok" | "unreachable";
  migrations: "ok" | "pending" | "unknown";
  writes: "ok" | StorageFault | "unknown";
}

export const UNREACHABLE: DatabaseChecks = { database: "unreachable", migrations: "unknown", writes: "unknown" };

/**
 * Whether writes work. A failed write that is a storage fault (full, read-only) starts an
 * episode: logged once, not per request, and /readyz says not ready until a write succeeds
 * again (it probes with one small write, at most once a second).
 */
export class StorageHealth {
  private fault: StorageFault | undefined;
  private lastProbe = -Infinity;

  constructor(
    private readonly db: DirectoryDb,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): StorageFault | undefined {
    return this.fault;
  }

  /** Records a failed write; returns the storage fault it was, or undefined for any other error. */
  report(error: unknown, during: string): StorageFault | undefined {
    const fault = storageFaultOf(error);
    if (fault && fault !== this.fault) {
      this.fault = fault;
      this.log.error("database writes are failing: answering 503 until they work again", {
        fault,
        during,
        detail: `${FAULT_DESCRIPTION[fault]} (${error instanceof Error ? error.message : String(error)})`,
      });
    }
    return fault;
  }

  /** A write that is bookkeeping failed (the request goes on): a storage fault, or logged as a warning. */
  bookkeepingFailed(error: unknown, during: string): void {
    if (this.report(error, during)) return;
    this.log.warn("bookkeeping write failed; the request went on", { during, error: error instanceof Error ? error.message : String(error) });
  }

  /** The fault now, probing with a write first when one was seen (for /readyz and at start). */
  recheck(force = false): StorageFault | undefined {
    const now = this.now();
    if (!force && (!this.fault || now - this.lastProbe < PROBE_INTERVAL_MS)) return this.fault;
    this.lastProbe = now;
    try {
      probeWrite(this.db.$client);
      if (this.fault) this.log.info("database writes work again", { after: this.fault });
      this.fault = undefined;
    } catch (error) {
      if (!this.report(error, "write probe")) throw error;
    }
    return this.fault;
  }

  /**
   * The database answers a query, carries every migration this binary knows, and takes writes
   * (probed as recheck does). Cheap (a few tiny queries), so a load balancer may poll it often.
   */
  status(): DatabaseChecks {
    let migrated: boolean;
    try {
      this.db.$client.query("SELECT 1").get();
      migrated = isFullyMigrated(this.db);
    } catch {
      return UNREACHABLE;
    }
    let fault;
    try {
      fault = this.recheck();
    } catch {
      return UNREACHABLE;
    }
    return { database: "ok", migrations: migrated ? "ok" : "pending", writes: fault ?? "ok" };
  }
}
