import { Database } from "bun:sqlite";
import { resolve } from "node:path";
import postgres from "postgres";
import { createTestPgDatabase, onPostgres } from "./testDatabase.ts";

/**
 * Reads the directory a CLI test wrote, by the --db path the test gave (with TEST_DATABASE=postgres
 * that path stands for the test's PostgreSQL database: cliHarness.ts), in SQL both dialects take.
 * Numbers come back as numbers in both (PostgreSQL's bigint and numeric arrive as text).
 */
export async function directoryRows(path: string, query: string): Promise<Record<string, unknown>[]> {
  if (!onPostgres) {
    const db = new Database(path, { readonly: true });
    try {
      return db.query<Record<string, unknown>, []>(query).all();
    } finally {
      db.close();
    }
  }
  const sql = postgres((await createTestPgDatabase(resolve(path))).url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql.unsafe(query);
    return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value])));
  } finally {
    await sql.end();
  }
}

/** The directory version: moved by every write to the directory tables. */
export async function directoryVersion(path: string): Promise<number> {
  const [row] = await directoryRows(path, "SELECT value FROM meta WHERE key = 'directory_version'");
  return Number(row?.value);
}

/**
 * Brokers whose stored rating aggregates differ from a recount of their published reviews, and
 * brokers without an office: both must always be empty, whatever was interrupted.
 */
export async function directoryIntegrity(path: string): Promise<{ aggregatesOff: unknown[]; withoutOffices: unknown[] }> {
  const aggregatesOff = await directoryRows(
    path,
    `SELECT b.id FROM brokers b
     WHERE b.review_count <> (SELECT count(*) FROM reviews r WHERE r.broker_id = b.id AND r.published = true)
        OR abs(coalesce(b.average_rating, 0) - coalesce((SELECT avg(r.rating * 1.0) FROM reviews r WHERE r.broker_id = b.id AND r.published = true), 0)) > 0.006
        OR b.rating_5 <> (SELECT count(*) FROM reviews r WHERE r.broker_id = b.id AND r.published = true AND r.rating = 5)`,
  );
  const withoutOffices = await directoryRows(path, "SELECT b.id FROM brokers b WHERE NOT EXISTS (SELECT 1 FROM broker_locations l WHERE l.broker_id = b.id)");
  return { aggregatesOff, withoutOffices };
}
