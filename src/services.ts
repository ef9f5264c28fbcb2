import { AuthFailureThrottle } from "./auth/authFailureThrottle.ts";
import { DEFAULT_KEY_LIMITS, type KeyLimits } from "./auth/keyVocabulary.ts";
import type { RateLimiter } from "./auth/rateLimiter.ts";
import { InMemoryRateLimiter } from "./auth/rateLimiter.ts";
import { CacheRegistry } from "./cache/cacheRegistry.ts";
import { DownloadSlots } from "./auth/downloadSlots.ts";
import type { Logger } from "./log.ts";
import { DrainState } from "./ops/drainState.ts";
import { BrokerStore } from "./storage/stores/brokerStore.ts";
import { CarrierStore } from "./storage/stores/carrierStore.ts";
import { ConsoleLinkStore } from "./storage/stores/consoleLinkStore.ts";
import { ConsoleSessionStore } from "./storage/stores/consoleSessionStore.ts";
import type { DirectoryDb } from "./storage/sqlite/database.ts";
import { DirectoryVersion } from "./storage/sqlite/directoryVersion.ts";
import { IdempotencyStore } from "./storage/stores/idempotencyStore.ts";
import { KeyStore } from "./storage/stores/keyStore.ts";
import { KeyUsageStore } from "./storage/stores/keyUsageStore.ts";
import { LeadStore } from "./storage/stores/leadStore.ts";
import type { WorkspaceStorePorts } from "./storage/ports.ts";
import { QuotePurge } from "./storage/stores/quotePurge.ts";
import { QuoteStore } from "./storage/stores/quoteStore.ts";
import { UsageCounter } from "./storage/stores/usageCounter.ts";
import { SqliteExecutor } from "./storage/sqlite/sqliteExecutor.ts";
import { StorageHealth } from "./storage/sqlite/storageHealth.ts";
import { WebhookStore } from "./storage/stores/webhookStore.ts";
import { DirectoryWriteStore } from "./storage/stores/directoryWriteStore.ts";
import { DeliveryBell } from "./ops/webhooks/deliveryBell.ts";
import { WebhookAttemptCounts } from "./ops/webhooks/attemptCounts.ts";

/**
 * Everything procedures and adapters need, built once per process and shared by requests.
 * The workspace stores are ports: SQLite's classes, or their PostgreSQL twins (DATABASE_URL,
 * src/storage/pg/pgStores.ts); callers `await` what they answer.
 */
export interface Services extends WorkspaceStorePorts {
  /** SQLite: the database file; with DATABASE_URL, this instance's directory replica. */
  db: DirectoryDb;
  brokers: BrokerStore;
  carriers: CarrierStore;
  /** Requests per key per day: counted in memory on the request path, flushed to keyUsage. */
  usage: UsageCounter;
  rateLimiter: RateLimiter;
  /** Every cache keyed by outside input, for /metrics and the memory-bounds test. */
  caches: CacheRegistry;
  authFailures: AuthFailureThrottle;
  /** What a workspace may give itself through the API: how many keys, how high a limit. */
  keyLimits: KeyLimits;
  /** Large downloads in progress per key (DOWNLOADS_PER_KEY): directory reads and CSV exports. */
  downloads: DownloadSlots;
  /** Rung when a request queued a webhook delivery: this instance's deliverer looks at once. */
  webhookBell: DeliveryBell;
  /** Webhook attempts this process's deliverer recorded, by outcome (for /metrics). */
  webhookAttempts: WebhookAttemptCounts;
  /** What the operator allows of webhook endpoints (WEBHOOKS_ALLOW_HTTP_LOOPBACK) and how long a rolled secret keeps signing. */
  webhookPolicy: WebhookPolicy;
  /** Whether the process has begun to stop (read by /readyz). */
  drain: DrainState;
  log: Logger;
  /** Milliseconds since the epoch; injected so tests can move time. */
  now: () => number;
}

export interface WebhookPolicy {
  allowHttpLoopback: boolean;
}

/**
 * Builds the services over the SQLite database `db`. Stores given in `overrides` (the
 * PostgreSQL twins, a shared rate limiter) are used instead of SQLite's, also by what is built
 * on them here (the usage counter, the cache registry).
 */
export function createServices(db: DirectoryDb, log: Logger, overrides: Partial<Services> = {}): Services {
  // One version for every directory cache, so a request reads it once whichever store asks.
  const directoryVersion = new DirectoryVersion(db);
  // The workspace stores' executor: one per connection, sharing its group commit.
  const x = SqliteExecutor.of(db);
  const storage = overrides.storage ?? new StorageHealth(db, log);
  const keyUsage = overrides.keyUsage ?? new KeyUsageStore(x);
  const usage = new UsageCounter(keyUsage, (error) => {
    // A full or read-only database is one episode in the log (StorageHealth), not a line a minute.
    if (storage.report(error, "usage counts")) return;
    log.warn("usage counts not written; kept for the next flush", { error: error instanceof Error ? error.message : String(error) });
  });
  const brokers = new BrokerStore(db, directoryVersion, (error) =>
    log.error("rendering the directory's answers failed; they are built per request until the next load", { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
  const carriers = new CarrierStore(db, directoryVersion);
  // In-process unless the app passes a shared one (REDIS_URL: every instance spends one budget).
  const rateLimiter = overrides.rateLimiter ?? new InMemoryRateLimiter();
  const keys = overrides.keys ?? new KeyStore(x, storage);
  const caches = new CacheRegistry();
  caches.add(...brokers.caches(), ...carriers.caches(), ...keys.caches(), rateLimiter);
  return {
    db,
    brokers,
    keys,
    carriers,
    quotes: overrides.quotes ?? new QuoteStore(x),
    leads: overrides.leads ?? new LeadStore(x),
    usage,
    keyUsage,
    consoleLinks: overrides.consoleLinks ?? new ConsoleLinkStore(x),
    consoleSessions: overrides.consoleSessions ?? new ConsoleSessionStore(x, storage),
    quotePurge: overrides.quotePurge ?? new QuotePurge(x),
    idempotency: overrides.idempotency ?? new IdempotencyStore(x),
    webhooks: overrides.webhooks ?? new WebhookStore(x),
    directory: overrides.directory ?? new DirectoryWriteStore(x),
    webhookBell: new DeliveryBell(),
    webhookAttempts: new WebhookAttemptCounts(),
    webhookPolicy: { allowHttpLoopback: false },
    rateLimiter,
    caches,
    authFailures: new AuthFailureThrottle(),
    keyLimits: DEFAULT_KEY_LIMITS,
    downloads: new DownloadSlots(),
    storage,
    drain: new DrainState(),
    log,
    now: Date.now,
    ...overrides,
  };
}
