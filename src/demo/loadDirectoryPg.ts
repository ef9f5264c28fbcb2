import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type DirectoryDb } from "../storage/sqlite/database.ts";
import { migrate } from "../storage/sqlite/migrate.ts";
import { insertIntoPg, SEED_LOCK, sqliteRowPages, type DirectoryTable } from "../storage/pg/directoryCopy.ts";
import type { PgDb } from "../storage/pg/pgDatabase.ts";
import type { DirectoryOptions } from "./generateDirectory.ts";
import { loadDirectory, type LoadSummary } from "./loadDirectory.ts";

/** The tables a seed replaces, parents first. Carriers have their own sync (loadCarriersPg). */
const SEEDED: readonly DirectoryTable[] = ["brokers", "brokerLocations", "brokerLines", "reviews"];
/** Rows read from the temporary file per page (each page is one or two INSERTs into PostgreSQL). */
const PAGE_ROWS = 4_000;

/**
 * Replaces PostgreSQL's directory with a generated one. The one generator (loadDirectory) writes
 * a temporary SQLite file, whose triggers compute the rating aggregates; its tables are then
 * copied into PostgreSQL in ONE transaction (readers and replicas see the old directory until
 * the commit, the new one after), with the bulk-load setting that skips PostgreSQL's per-row
 * triggers (the aggregates arrive computed), and one "reload everything" change (broker 0) that
 * tells every replica to reload. Workspaces, keys, leads and quotes are untouched (a lead's
 * broker_slug is text, not a reference, so leads naming a broker that is gone keep the slug).
 */
export async function loadDirectoryPg(pg: PgDb, options: DirectoryOptions, onProgress?: (done: number, total: number) => void): Promise<LoadSummary> {
  const summary = await generateAndCopy(pg, options, onProgress, false);
  if (!summary) throw new Error("unreachable: a seed that may replace the directory always writes it");
  return summary;
}

/**
 * The demo directory, only when PostgreSQL's directory is empty (checked again under the seed's
 * lock, so instances starting at once seed it once). Resolves to the brokers loaded (0: none).
 */
export async function loadDemoDirectoryPg(pg: PgDb, options: DirectoryOptions): Promise<number> {
  if (await directoryHasBrokers(pg)) return 0;
  return (await generateAndCopy(pg, options, undefined, true))?.brokers ?? 0;
}

async function generateAndCopy(
  pg: PgDb,
  options: DirectoryOptions,
  onProgress: ((done: number, total: number) => void) | undefined,
  onlyIfEmpty: boolean,
): Promise<LoadSummary | undefined> {
  // Private (0700 directory, 0600 file) and removed whatever happens.
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-seed-"));
  try {
    const temp = openDatabase(join(dir, "directory.db"));
    try {
      migrate(temp);
      const summary = loadDirectory(temp, options, onProgress);
      return (await copyDirectoryIntoPg(temp, pg, onlyIfEmpty)) ? summary : undefined;
    } finally {
      temp.$client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function directoryHasBrokers(pg: PgDb): Promise<boolean> {
  const rows = await pg.$client`SELECT 1 FROM brokers LIMIT 1`;
  return rows.length > 0;
}

/** The copy itself: one transaction; false when `onlyIfEmpty` found brokers already there. */
async function copyDirectoryIntoPg(source: DirectoryDb, pg: PgDb, onlyIfEmpty: boolean): Promise<boolean> {
  return pg.$client.begin(async (sql) => {
    await sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`;
    if (onlyIfEmpty && (await sql`SELECT 1 FROM brokers LIMIT 1`).length > 0) return false;
    await sql`SET LOCAL broker_directory.bulk_load = 'on'`;
    // TRUNCATE rather than DELETE: instant at any size. Its lock makes a replica reading meanwhile
    // wait for the commit (a wait, never an error; the replica keeps serving what it holds).
    await sql`TRUNCATE reviews, broker_lines, broker_locations, brokers`;
    for (const table of SEEDED) {
      for (const page of sqliteRowPages(source.$client, table, PAGE_ROWS)) await insertIntoPg(sql, table, page);
    }
    await sql`INSERT INTO directory_changes (broker_id, ratings_only) VALUES (0, false)`;
    return true;
  });
}
