import type { Logger } from "../../log.ts";
import type { StorageHealthPort, WorkspaceStorePorts } from "../ports.ts";
import { ConsoleLinkStore } from "../stores/consoleLinkStore.ts";
import { ConsoleSessionStore } from "../stores/consoleSessionStore.ts";
import { IdempotencyStore } from "../stores/idempotencyStore.ts";
import { KeyStore } from "../stores/keyStore.ts";
import type { PgDb } from "./pgDatabase.ts";
import { withDeadlines } from "./pgDeadline.ts";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "./statementTimeout.ts";
import { PgExecutor } from "./pgExecutor.ts";
import { KeyUsageStore } from "../stores/keyUsageStore.ts";
import { LeadStore } from "../stores/leadStore.ts";
import { QuotePurge } from "../stores/quotePurge.ts";
import { QuoteStore } from "../stores/quoteStore.ts";
import { PgStorageHealth } from "./pgStorageHealth.ts";
import { PgVersionWatch } from "./versionWatch.ts";
import { WebhookStore } from "../stores/webhookStore.ts";
import { DirectoryWriteStore } from "../stores/directoryWriteStore.ts";

/** The workspace stores over PostgreSQL, as the ports Services holds (createServices' overrides). */
export type PgStores = WorkspaceStorePorts;

export interface RunningPgStores {
  stores: PgStores;
  /** keys_version as this process knows it (the key cache's version). */
  keysVersion: PgVersionWatch;
  /** Stops listening and polling (the pool is the caller's to close). */
  stop(): Promise<void>;
}

/**
 * Every write and workspace read over PostgreSQL (DATABASE_URL), ready to pass to
 * createServices: `createServices(replica, log, { ...stores, rateLimiter })`. Starts the
 * keys_version watch first, so it rejects when PostgreSQL cannot be reached at all. The stores
 * serve requests: each of their statements answers within `timeoutMs` or fails, and a write
 * that failed so is never committed later (withDeadlines).
 */
export async function createPgStores(
  pg: PgDb,
  log: Logger,
  storage: StorageHealthPort = new PgStorageHealth(pg, log),
  timeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
): Promise<RunningPgStores> {
  const keysVersion = new PgVersionWatch(pg, "keys_version", log);
  await keysVersion.start();
  const bounded = withDeadlines(pg, timeoutMs);
  const x = new PgExecutor(bounded);
  return {
    stores: {
      keys: new KeyStore(x, storage, keysVersion),
      leads: new LeadStore(x),
      quotes: new QuoteStore(x),
      keyUsage: new KeyUsageStore(x),
      consoleLinks: new ConsoleLinkStore(x),
      consoleSessions: new ConsoleSessionStore(x, storage),
      quotePurge: new QuotePurge(x),
      idempotency: new IdempotencyStore(x),
      webhooks: new WebhookStore(x),
      directory: new DirectoryWriteStore(x),
      storage,
    },
    keysVersion,
    stop: () => keysVersion.stop(),
  };
}
