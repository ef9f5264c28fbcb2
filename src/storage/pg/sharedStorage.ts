import { loadCarriersPg } from "./loadCarriersPg.ts";
import type { Logger } from "../../log.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import type { WorkspaceStorePorts } from "../ports.ts";
import { DirectoryReplica } from "./directoryReplica.ts";
import { openMigratedPostgres } from "./migratePg.ts";
import { closePostgres, unreachable, type PgDb } from "./pgDatabase.ts";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "./statementTimeout.ts";
import { createPgStores } from "./pgStores.ts";

/** What an instance over PostgreSQL (DATABASE_URL) reads and writes, opened and ready to serve. */
export interface SharedStorage {
  pg: PgDb;
  /** This instance's directory replica: what BrokerStore and CarrierStore read. */
  replica: DirectoryReplica;
  /** The workspace stores over PostgreSQL, for createServices' overrides. */
  stores: WorkspaceStorePorts;
  /** The SQLite database the directory stores read (the replica's file). */
  db: DirectoryDb;
  migrationsApplied: string[];
  /** Demo brokers this start wrote into PostgreSQL (0 when its directory was not empty). */
  loadedBrokers: number;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL for `serve`: migrations (under the advisory lock: instances starting at once
 * migrate once), the carrier catalogue and, if given, `demoDirectory` (the demo data into an empty
 * directory; both under a lock too), then the workspace stores and the directory replica, loaded before the
 * first request; `timeoutMs` bounds each statement of a request (DATABASE_TIMEOUT_SECONDS). PostgreSQL out of reach fails the start with one line that names the server,
 * never the password; whatever was opened is closed again.
 */
export async function openSharedStorage(
  url: string,
  log: Logger,
  options: { demoDirectory?: (pg: PgDb) => Promise<number>; replicaDir?: string; timeoutMs?: number },
): Promise<SharedStorage> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const { pg, applied } = await openMigratedPostgres(url, { connectTimeoutSeconds: timeoutMs / 1000 });
  let stopStores: (() => Promise<void>) | undefined;
  try {
    await loadCarriersPg(pg);
    const loadedBrokers = options.demoDirectory ? await options.demoDirectory(pg) : 0;
    const running = await createPgStores(pg, log, undefined, timeoutMs);
    stopStores = running.stop;
    const replica = await DirectoryReplica.open(pg, { log, dir: options.replicaDir });
    return {
      pg,
      replica,
      stores: running.stores,
      db: replica.db,
      migrationsApplied: applied,
      loadedBrokers,
      async close() {
        await running.stop();
        await replica.close();
        await closePostgres(pg);
        log.info("database closed");
      },
    };
  } catch (error) {
    await stopStores?.().catch(() => {});
    await closePostgres(pg, 0).catch(() => {});
    throw unreachable(error, url);
  }
}
