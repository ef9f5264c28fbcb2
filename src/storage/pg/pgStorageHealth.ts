import type { Logger } from "../../log.ts";
import { storageFaultOf, type StorageFault } from "../storageFault.ts";
import { FAULT_DESCRIPTION, UNREACHABLE, type DatabaseChecks } from "../storageHealth.ts";
import { isPgFullyMigrated } from "./migratePg.ts";
import type { PgDb } from "./pgDatabase.ts";

/** /readyz probes a faulted database at most this often. */
const PROBE_INTERVAL_MS = 1_000;
/** A /readyz probe PostgreSQL has not answered by then counts as unreachable (a balancer waits less). */
const STATUS_TIMEOUT_MS = 2_000;

/**
 * StorageHealth for PostgreSQL (DATABASE_URL): the same episodes (a fault logged once, /readyz
 * not ready until a probe works again), plus the fault only a network database has:
 * "unavailable" (down, restarting, out of connections). Nothing is restarted on recovery: the
 * pool reconnects by itself at the next query, and the next probe that works ends the episode.
 */
export class PgStorageHealth {
  private fault: StorageFault | undefined;
  private lastProbe = -Infinity;

  constructor(
    private readonly pg: PgDb,
    private readonly log: Logger,
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
      this.log.error("database is failing: answering 503 until it works again", {
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

  /**
   * The fault now, probing first when one was seen (at most once a second). The probe is a
   * write that changes nothing (a standby or a full disk refuses it as they refuse any write).
   */
  async recheck(force = false): Promise<StorageFault | undefined> {
    const now = this.now();
    if (!force && (!this.fault || now - this.lastProbe < PROBE_INTERVAL_MS)) return this.fault;
    this.lastProbe = now;
    try {
      await this.pg.$client.begin((tx) => tx`UPDATE meta SET value = value WHERE key = 'keys_version' AND false`);
      if (this.fault) this.log.info("database works again", { after: this.fault });
      this.fault = undefined;
    } catch (error) {
      if (!this.report(error, "write probe")) throw error;
    }
    return this.fault;
  }

  /** What /readyz says of PostgreSQL: reachable, migrated, taking writes; bounded in time. */
  async status(): Promise<DatabaseChecks> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<DatabaseChecks>((resolve) => (timer = setTimeout(() => resolve(UNREACHABLE), STATUS_TIMEOUT_MS)));
    try {
      return await Promise.race([this.probe(), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async probe(): Promise<DatabaseChecks> {
    let migrated: boolean;
    try {
      migrated = await isPgFullyMigrated(this.pg);
    } catch (error) {
      // Unreachable is an episode too: logged once, and the answers' 503s agree with /readyz.
      this.report(error, "readiness check");
      return UNREACHABLE;
    }
    let fault;
    try {
      fault = await this.recheck();
    } catch {
      return UNREACHABLE;
    }
    // The database answered: an "unavailable" episode is over even if no write came to end it.
    if (fault === "unavailable") fault = await this.recheck(true).catch(() => "unavailable" as const);
    return { database: "ok", migrations: migrated ? "ok" : "pending", writes: fault ?? "ok" };
  }
}
