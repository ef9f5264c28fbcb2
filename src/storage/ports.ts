import type { ConsoleLinkStore } from "./stores/consoleLinkStore.ts";
import type { ConsoleSessionStore } from "./stores/consoleSessionStore.ts";
import type { KeyStore } from "./stores/keyStore.ts";
import type { KeyUsageStore } from "./stores/keyUsageStore.ts";
import type { LeadStore } from "./stores/leadStore.ts";
import type { QuotePurge } from "./stores/quotePurge.ts";
import type { QuoteStore } from "./stores/quoteStore.ts";
import type { StorageHealth } from "./sqlite/storageHealth.ts";

/** A value now (SQLite answers synchronously) or later (PostgreSQL answers over the network). */
export type Awaitable<T> = T | Promise<T>;

/**
 * A store's methods as either dialect may answer them: the SQLite class is the one declaration
 * (its signatures are the contract), the PostgreSQL twin implements this port of it, and
 * callers `await` every result, which costs nothing when SQLite answered at once. Only the
 * methods named are part of the port; what else a class has is its own business.
 */
export type Port<S, M extends keyof S> = {
  [K in M]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Awaitable<Awaited<R>> : S[K];
};

// The stores whose rows live in the shared database when DATABASE_URL is set. The directory
// itself (brokers, offices, reviews, carriers) is read from each instance's replica instead
// (src/storage/pg/directoryReplica.ts), through the SQLite stores unchanged.
/**
 * `caches` and `recordUse` stay synchronous in both dialects: the cache is this process's own,
 * and recordUse is bookkeeping that never fails a request (a twin writes in the background).
 * `findByHash` answers synchronously on a cache hit in both: admission stays promise-free then.
 */
export type KeyStorePort = Pick<KeyStore, "caches" | "recordUse"> &
  Port<
    KeyStore,
    | "create"
    | "findByHash"
    | "list"
    | "revoke"
    | "revokeNamed"
    | "workspaceById"
    | "workspaceByName"
    | "listIn"
    | "findIn"
    | "createBounded"
    | "roll"
    | "count"
    | "ensureWorkspace"
  >;
export type KeyUsageStorePort = Port<KeyUsageStore, "add" | "since">;
export type ConsoleLinkStorePort = Port<ConsoleLinkStore, "create" | "redeem">;
export type ConsoleSessionStorePort = Port<ConsoleSessionStore, "start" | "resolve" | "end" | "endAll">;
/** `current` is this process's memory; the checks may ask the database (a network round trip with PostgreSQL). */
export type StorageHealthPort = Pick<StorageHealth, "current" | "report" | "bookkeepingFailed" | "readsNeedDatabase"> & Port<StorageHealth, "recheck" | "status">;

/** The stores whose rows live in the shared database with DATABASE_URL, and its health (Services has them). */
export interface WorkspaceStorePorts {
  keys: KeyStorePort;
  quotes: QuoteStore;
  leads: LeadStore;
  keyUsage: KeyUsageStorePort;
  consoleLinks: ConsoleLinkStorePort;
  consoleSessions: ConsoleSessionStorePort;
  /** Deletes quotes long past expiry (run in batches by src/ops/maintenance.ts). */
  quotePurge: QuotePurge;
  /** Whether the database works (full, read-only, unreachable): logged once per episode, read by /readyz. */
  storage: StorageHealthPort;
}
