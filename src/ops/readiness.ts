import type { Awaitable, StorageHealthPort } from "../storage/ports.ts";
import type { DatabaseChecks } from "../storage/storageHealth.ts";
import type { DrainState } from "./drainState.ts";

export interface Readiness {
  ready: boolean;
  checks: DatabaseChecks & {
    /** "stopping" from SIGTERM on: still serving, but a balancer should send no more. */
    lifecycle: "serving" | "stopping";
  };
}

/**
 * Whether this process can serve traffic: the database answers a query, carries every
 * migration this binary knows, and takes writes (after a write failed because the disk was
 * full, the file read-only or PostgreSQL unreachable, not until a probe works again: see
 * StorageHealth and PgStorageHealth), and has not begun to stop (DrainState). Answered at once
 * over SQLite; over PostgreSQL after a round trip (bounded: an unanswered probe is "unreachable").
 */
export function checkReadiness(storage: Pick<StorageHealthPort, "status">, drain: DrainState): Awaitable<Readiness> {
  const checks = storage.status();
  return checks instanceof Promise ? checks.then((settled) => readinessOf(settled, drain)) : readinessOf(checks, drain);
}

function readinessOf(checks: DatabaseChecks, drain: DrainState): Readiness {
  const ok = checks.database === "ok" && checks.migrations === "ok" && checks.writes === "ok";
  return { ready: ok && !drain.draining, checks: { ...checks, lifecycle: drain.draining ? "stopping" : "serving" } };
}
