import type { Awaitable, StorageHealthPort } from "../storage/ports.ts";
import type { DatabaseChecks } from "../storage/sqlite/storageHealth.ts";
import type { DrainState } from "./drainState.ts";

/** What this instance can do now: answer reads and writes, reads only (no write works), or nothing. */
export type ServingMode = "read-write" | "read-only" | "unavailable";

export interface Readiness {
  /** Whether it can serve (/readyz): a balancer should send it traffic. */
  ready: boolean;
  /** Whether writes work too (/readyz/writes). */
  writable: boolean;
  mode: ServingMode;
  checks: DatabaseChecks & {
    /** "stopping" from SIGTERM on: still serving, but a balancer should send no more. */
    lifecycle: "serving" | "stopping";
  };
}

/**
 * Whether this process can serve traffic, and whether it can write. Serving needs the reads to
 * work, every migration this binary knows, and not to have begun to stop (DrainState). Over
 * SQLite the reads are the database's: it must answer and take writes (after a write failed
 * because the disk was full or the file read-only, not until a probe works again: see
 * StorageHealth). Over PostgreSQL the directory is read from this instance's replica, loaded
 * before the first request: with PostgreSQL unreachable or refusing writes the instance still
 * serves those reads ("read-only": writes answer 503 + Retry-After), so a balancer keeps it —
 * an outage of the shared database is not an outage of every read. Writing needs PostgreSQL to
 * take writes (PgStorageHealth; a probe bounded in time). Answered at once over SQLite.
 */
export function checkReadiness(storage: Pick<StorageHealthPort, "status" | "readsNeedDatabase">, drain: DrainState): Awaitable<Readiness> {
  const checks = storage.status();
  const of = (settled: DatabaseChecks) => readinessOf(settled, drain, storage.readsNeedDatabase);
  return checks instanceof Promise ? checks.then(of) : of(checks);
}

function readinessOf(checks: DatabaseChecks, drain: DrainState, readsNeedDatabase: boolean): Readiness {
  const writable = checks.database === "ok" && checks.migrations === "ok" && checks.writes === "ok";
  // "unknown" (PostgreSQL unreachable): the replica was migrated by this binary at start.
  const readable = readsNeedDatabase ? writable : checks.migrations !== "pending";
  const ready = readable && !drain.draining;
  const mode: ServingMode = !ready ? "unavailable" : writable ? "read-write" : "read-only";
  return { ready, writable: ready && writable, mode, checks: { ...checks, lifecycle: drain.draining ? "stopping" : "serving" } };
}
