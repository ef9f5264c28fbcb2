import type { Logger } from "../../log.ts";
import type { DirectoryDb } from "./database.ts";
import { isFullyMigrated } from "./migrate.ts";
import { FaultEpisodes } from "../faultEpisodes.ts";
import { probeWrite, type StorageFault } from "../storageFault.ts";

/** What /readyz says of the database (src/ops/readiness.ts adds the lifecycle). */
export interface DatabaseChecks {
  database: "ok" | "unreachable";
  migrations: "ok" | "pending" | "unknown";
  writes: "ok" | StorageFault | "unknown";
}

export const UNREACHABLE: DatabaseChecks = { database: "unreachable", migrations: "unknown", writes: "unknown" };

/**
 * Whether writes work (SQLite). A failed write that is a storage fault (full, read-only) starts
 * an episode (FaultEpisodes): logged once, not per request, and /readyz says not ready until a
 * write succeeds again (it probes with one small write, at most once a second).
 */
export class StorageHealth extends FaultEpisodes {
  /** Reads are this file's too: an instance that cannot write it is taken out (/readyz). */
  readonly readsNeedDatabase: boolean = true;

  constructor(
    private readonly db: DirectoryDb,
    log: Logger,
    now: () => number = Date.now,
  ) {
    super(log, now);
  }

  /** The fault now, probing with a write first when one was seen (for /readyz and at start). */
  recheck(force = false): StorageFault | undefined {
    if (!this.probeDue(force)) return this.fault;
    try {
      probeWrite(this.db.$client);
      this.probeWorked();
    } catch (error) {
      this.probeFailed(error);
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
