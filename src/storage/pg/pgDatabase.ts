import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../../db/schema.pg.ts";
import { DatabaseNotWritableError, storageFaultOf } from "../storageFault.ts";

/**
 * A PostgreSQL database (DATABASE_URL) through postgres.js: the driver because it holds a
 * LISTEN connection (Bun's built-in SQL client has no LISTEN yet, and the change announcements
 * need one) and is drizzle's most used pg driver. Drizzle's pg dialect over db/schema.pg.ts.
 */
export type PgDb = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };

export interface PgOptions {
  /** Connections this process may open (default 10: a few requests' writes at once, plus LISTEN). */
  max?: number;
  /** Seconds a connection attempt may take (DATABASE_TIMEOUT_SECONDS; default 5). */
  connectTimeoutSeconds?: number;
}

/**
 * Seconds between a failed connection attempt and the next one: 0.05, 0.1, 0.2, 0.4, then
 * 0.5 s for as long as the outage lasts. postgres.js's default grows with every failure up to
 * 20 s, and a statement arriving then waits for that whole delay before its connection is even
 * tried: after a five-minute outage, writes waited 5 to 25 s and more (issue 25, item 13). With
 * the cap, the pool after N failures is the same for every N >= 4: an outage of five minutes
 * leaves it as one of two seconds does, and the first attempt after a restart is at most 0.5 s away.
 */
export function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.025 * 2 ** failures, 0.5);
}

export function openPostgres(url: string, options: PgOptions = {}): PgDb {
  const client = postgres(url, {
    max: options.max ?? 10,
    // A connection attempt that takes longer fails (503) rather than holding a request forever.
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    backoff: reconnectDelaySeconds,
    idle_timeout: 60,
    // NOTICEs (e.g. "relation already exists, skipping") are not worth a log line each.
    onnotice: () => {},
    // int8 arrives as text; drizzle's bigint({ mode: "number" }) columns turn it into a number
    // (raw counts are cast to integer in SQL for the same reason).
  });
  return drizzle({ client, schema }) as PgDb;
}

/** Whether a database URL names PostgreSQL (the only network database we speak). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Closes the pool, letting running statements finish for up to `seconds`. */
export async function closePostgres(db: PgDb, seconds = 5): Promise<void> {
  await db.$client.end({ timeout: seconds });
}

/** PostgreSQL out of reach: one line naming the server (never its password), exit 1. */
export function unreachable(error: unknown, url: string): unknown {
  if (storageFaultOf(error) !== "unavailable") return error;
  const { hostname, port } = new URL(url);
  const detail = error instanceof Error ? error.message : String(error);
  return new DatabaseNotWritableError(`Cannot reach PostgreSQL at ${hostname}:${port || 5432} (${detail}). Check DATABASE_URL and that the server is up.`);
}
