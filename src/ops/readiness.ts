import type { DirectoryDb } from "../storage/database.ts";
import { isFullyMigrated } from "../storage/migrate.ts";
import type { StorageHealth } from "../storage/storageHealth.ts";
import type { DrainState } from "./drainState.ts";

export interface Readiness {
  ready: boolean;
  checks: {
    database: "ok" | "unreachable";
    migrations: "ok" | "pending" | "unknown";
    writes: "ok" | "full" | "read-only" | "unknown";
    /** "stopping" from SIGTERM on: still serving, but a balancer should send no more. */
    lifecycle: "serving" | "stopping";
  };
}

/**
 * Whether this process can serve traffic: the database answers a query, carries every
 * migration this binary knows, and takes writes (after a write failed because the disk was
 * full or the file read-only, not until a probe write works again: see StorageHealth), and
 * has not begun to stop (DrainState). Cheap (a few tiny queries), so a load balancer may poll it often.
 */
export function checkReadiness(db: DirectoryDb, storage: StorageHealth, drain: DrainState): Readiness {
  const lifecycle = drain.draining ? "stopping" : "serving";
  const unreachable: Readiness = { ready: false, checks: { database: "unreachable", migrations: "unknown", writes: "unknown", lifecycle } };
  let migrated: boolean;
  try {
    db.$client.query("SELECT 1").get();
    migrated = isFullyMigrated(db);
  } catch {
    return unreachable;
  }
  let fault;
  try {
    fault = storage.recheck();
  } catch {
    return unreachable;
  }
  return {
    ready: migrated && !fault && !drain.draining,
    checks: { database: "ok", migrations: migrated ? "ok" : "pending", writes: fault ?? "ok", lifecycle },
  };
}
