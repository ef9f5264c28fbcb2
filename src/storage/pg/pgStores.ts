import type { Logger } from "../../log.ts";
import type { StorageHealthPort, WorkspaceStorePorts } from "../ports.ts";
import { PgConsoleLinkStore } from "./pgConsoleLinkStore.ts";
import { PgConsoleSessionStore } from "./pgConsoleSessionStore.ts";
import type { PgDb } from "./pgDatabase.ts";
import { PgKeyStore } from "./pgKeyStore.ts";
import { PgKeyUsageStore } from "./pgKeyUsageStore.ts";
import { PgLeadStore } from "./pgLeadStore.ts";
import { PgQuotePurge } from "./pgQuotePurge.ts";
import { PgQuoteStore } from "./pgQuoteStore.ts";
import { PgStorageHealth } from "./pgStorageHealth.ts";
import { PgVersionWatch } from "./versionWatch.ts";

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
 * keys_version watch first, so it rejects when PostgreSQL cannot be reached at all.
 */
export async function createPgStores(pg: PgDb, log: Logger, storage: StorageHealthPort = new PgStorageHealth(pg, log)): Promise<RunningPgStores> {
  const keysVersion = new PgVersionWatch(pg, "keys_version", log);
  await keysVersion.start();
  return {
    stores: {
      keys: new PgKeyStore(pg, keysVersion, storage),
      leads: new PgLeadStore(pg),
      quotes: new PgQuoteStore(pg),
      keyUsage: new PgKeyUsageStore(pg),
      consoleLinks: new PgConsoleLinkStore(pg),
      consoleSessions: new PgConsoleSessionStore(pg, storage),
      quotePurge: new PgQuotePurge(pg),
      storage,
    },
    keysVersion,
    stop: () => keysVersion.stop(),
  };
}
