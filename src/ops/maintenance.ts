import type { RateLimiter } from "../auth/rateLimiter.ts";
import type { Logger } from "../log.ts";
import { IDEMPOTENCY_PURGE_BATCH, type IdempotencyStore } from "../storage/stores/idempotencyStore.ts";
import type { QuotePurge } from "../storage/stores/quotePurge.ts";
import { WEBHOOK_PURGE_BATCH, type WebhookStore } from "../storage/stores/webhookStore.ts";

/** How long the webhook delivery log keeps a finished delivery (delivered or given up). */
export const WEBHOOK_LOG_DAYS = 30;

export interface MaintenanceOptions {
  /** How often idle rate-limit windows are dropped (default one minute). */
  sweepEveryMs?: number;
  /** How often expired quotes and idempotency records are purged (default ten minutes; the first run a minute after start). */
  purgeEveryMs?: number;
}

/**
 * The server's housekeeping on timers that never keep the process alive: rate-limit windows of
 * keys gone quiet are dropped, and quotes past expiry plus the grace, then idempotency records
 * past their 24 hours (and each workspace's beyond its cap) and webhook deliveries finished more
 * than WEBHOOK_LOG_DAYS ago, are deleted in batches, each its own short transaction with the
 * event loop free between them.
 */
export interface Maintenance {
  stop(): void;
  /** Runs a purge now (or joins the one running); resolves to the number of quotes deleted. */
  purgeNow(): Promise<number>;
}

/**
 * What the housekeeping works on: a part of Services (src/services.ts), named here so that ops,
 * a floor below the services, does not import them.
 */
export interface MaintenanceDeps {
  quotePurge: Pick<QuotePurge, "batch">;
  idempotency: Pick<IdempotencyStore, "purgeBatch" | "overCap" | "trimBatch">;
  webhooks: Pick<WebhookStore, "purge">;
  rateLimiter: Pick<RateLimiter, "sweep">;
  log: Logger;
  now: () => number;
}

export function startMaintenance(services: MaintenanceDeps, options: MaintenanceOptions = {}): Maintenance {
  const purge = services.quotePurge;
  let stopped = false;
  let purging: Promise<number> | undefined;

  const sweep = setInterval(() => services.rateLimiter.sweep?.(services.now()), options.sweepEveryMs ?? 60_000);
  sweep.unref();

  async function purgeAll(): Promise<number> {
    let total = 0;
    let from: number | undefined = 0;
    while (from !== undefined && !stopped) {
      const result = await purge.batch(services.now(), from);
      total += result.deleted;
      from = result.next;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (total > 0) services.log.info("expired quotes purged", { deleted: total });
    await purgeIdempotencyRecords();
    await purgeWebhookLog();
    return total;
  }

  /** The webhook delivery log: finished deliveries older than WEBHOOK_LOG_DAYS, a batch at a time. */
  async function purgeWebhookLog(): Promise<void> {
    const before = services.now() - WEBHOOK_LOG_DAYS * 86_400_000;
    const deleted = await inBatches(() => services.webhooks.purge(before), WEBHOOK_PURGE_BATCH);
    if (deleted > 0) services.log.info("old webhook deliveries purged", { deleted });
  }

  /** Records past the window, a batch at a time, then the oldest of any workspace over its cap. */
  async function purgeIdempotencyRecords(): Promise<void> {
    const { idempotency } = services;
    let deleted = await inBatches(() => idempotency.purgeBatch(services.now()), IDEMPOTENCY_PURGE_BATCH);
    for (const { workspaceId } of stopped ? [] : await idempotency.overCap()) deleted += await inBatches(() => idempotency.trimBatch(workspaceId), IDEMPOTENCY_PURGE_BATCH);
    if (deleted > 0) services.log.info("idempotency records purged", { deleted });
  }

  /** Runs `batch` until one deletes less than `full` (or the server stops), the event loop free between; the total deleted. */
  async function inBatches(batch: () => Promise<number>, full: number): Promise<number> {
    let total = 0;
    for (let deleted = full; deleted === full && !stopped; ) {
      deleted = await batch();
      total += deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }

  function purgeNow(): Promise<number> {
    purging ??= purgeAll()
      .catch((error: unknown) => {
        // Housekeeping: a failure (a busy or read-only database) is logged and retried next time.
        services.log.warn("quote purge failed", { error: error instanceof Error ? error.message : String(error) });
        return 0;
      })
      .finally(() => (purging = undefined));
    return purging;
  }

  const purgeEveryMs = options.purgeEveryMs ?? 10 * 60_000;
  const first = setTimeout(() => void purgeNow(), Math.min(60_000, purgeEveryMs));
  first.unref();
  const periodic = setInterval(() => void purgeNow(), purgeEveryMs);
  periodic.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(sweep);
      clearTimeout(first);
      clearInterval(periodic);
    },
    purgeNow,
  };
}
