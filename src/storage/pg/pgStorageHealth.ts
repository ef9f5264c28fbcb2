import type { Logger } from "../../log.ts";
import { FaultEpisodes } from "../faultEpisodes.ts";
import type { StorageFault } from "../storageFault.ts";
import { UNREACHABLE, type DatabaseChecks } from "../sqlite/storageHealth.ts";
import { isPgFullyMigrated } from "./migratePg.ts";
import type { PgDb } from "./pgDatabase.ts";

/** A /readyz probe PostgreSQL has not answered by then counts as unreachable (a balancer waits less). */
const STATUS_TIMEOUT_MS = 2_000;

/**
 * StorageHealth for PostgreSQL (DATABASE_URL): the same episodes (a fault logged once, /readyz
 * not ready until a probe works again), plus the fault only a network database has:
 * "unavailable" (down, restarting, out of connections). Nothing is restarted on recovery: the
 * pool reconnects by itself at the next query, and the next probe that works ends the episode.
 */
export class PgStorageHealth extends FaultEpisodes {
  /** Reads are the directory replica's: PostgreSQL down leaves the instance serving them (/readyz). */
  readonly readsNeedDatabase: boolean = false;

  constructor(
    private readonly pg: PgDb,
    log: Logger,
    now: () => number = Date.now,
  ) {
    super(log, now);
  }

  /**
   * The fault now, probing first when one was seen (at most once a second). The probe is an
   * UPDATE that touches no row: a standby refuses it as any write; a full disk shows at the next real write.
   */
  async recheck(force = false): Promise<StorageFault | undefined> {
    if (!this.probeDue(force)) return this.fault;
    try {
      await this.pg.$client.begin((tx) => tx`UPDATE meta SET value = value WHERE key = 'keys_version' AND false`);
      this.probeWorked();
    } catch (error) {
      this.probeFailed(error);
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
