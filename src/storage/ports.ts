import type { Awaitable } from "./executor.ts";
import type { ConsoleLinkStore } from "./stores/consoleLinkStore.ts";
import type { ConsoleSessionStore } from "./stores/consoleSessionStore.ts";
import type { KeyStore } from "./stores/keyStore.ts";
import type { KeyUsageStore } from "./stores/keyUsageStore.ts";
import type { LeadStore } from "./stores/leadStore.ts";
import type { IdempotencyStore } from "./stores/idempotencyStore.ts";
import type { QuotePurge } from "./stores/quotePurge.ts";
import type { QuoteStore } from "./stores/quoteStore.ts";
import type { StorageHealth } from "./sqlite/storageHealth.ts";
import type { WebhookStore } from "./stores/webhookStore.ts";
import type { DirectoryWriteStore } from "./stores/directoryWriteStore.ts";

export type { Awaitable } from "./executor.ts";

/**
 * A class's methods as either dialect may answer them: a value now (SQLite) or a promise
 * (PostgreSQL), which callers `await`. Only StorageHealth still has two classes (SQLite's file
 * checks and PostgreSQL's server checks: what they probe differs, not just how they ask); every
 * store is one class over the executor (src/storage/executor.ts).
 */
type Port<S, M extends keyof S> = {
  [K in M]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Awaitable<Awaited<R>> : S[K];
};

/** `current` is this process's memory; the checks may ask the database (a network round trip with PostgreSQL). */
export type StorageHealthPort = Pick<StorageHealth, "current" | "report" | "bookkeepingFailed" | "readsNeedDatabase"> & Port<StorageHealth, "recheck" | "status">;

/**
 * The stores whose rows live in the shared database when DATABASE_URL is set, and its health
 * (Services has them). Each store is one class over either dialect's executor. The directory
 * itself (brokers, offices, reviews, carriers) is read from each instance's replica instead
 * (src/storage/pg/directoryReplica.ts), through the SQLite stores.
 */
export interface WorkspaceStorePorts {
  keys: KeyStore;
  quotes: QuoteStore;
  leads: LeadStore;
  keyUsage: KeyUsageStore;
  consoleLinks: ConsoleLinkStore;
  consoleSessions: ConsoleSessionStore;
  /** The first answers of idempotency keys (read here; written with what they answer for). */
  idempotency: IdempotencyStore;
  /** Deletes quotes long past expiry (run in batches by src/ops/maintenance.ts). */
  quotePurge: QuotePurge;
  /** Webhook endpoints, the outbox and its deliveries (issue 28). */
  webhooks: WebhookStore;
  /** The directory's write API and its audit trail (issue 27): the authoritative database, never the replica. */
  directory: DirectoryWriteStore;
  /** Whether the database works (full, read-only, unreachable): logged once per episode, read by /readyz. */
  storage: StorageHealthPort;
}
