import type { DirectoryDb } from "../storage/database.ts";
import { isFullyMigrated } from "../storage/migrate.ts";

export interface Readiness {
  ready: boolean;
  checks: { database: "ok" | "unreachable"; migrations: "ok" | "pending" | "unknown" };
}

/**
 * Whether this process can serve traffic: the database answers a query and carries every
 * migration this binary knows. Cheap (two tiny queries), so a load balancer may poll it often.
 */
export function checkReadiness(db: DirectoryDb): Readiness {
  try {
    db.$client.query("SELECT 1").get();
  } catch {
    return { ready: false, checks: { database: "unreachable", migrations: "unknown" } };
  }
  let migrated: boolean;
  try {
    migrated = isFullyMigrated(db);
  } catch {
    return { ready: false, checks: { database: "unreachable", migrations: "unknown" } };
  }
  return { ready: migrated, checks: { database: "ok", migrations: migrated ? "ok" : "pending" } };
}
