import { asc, sql } from "drizzle-orm";
import catalogue from "./carriers.json" with { type: "json" };
import { carriers } from "../../../db/schema.ts";
import { carriers as pgCarriers } from "../../../db/schema.pg.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { SEED_LOCK } from "../pg/directoryCopy.ts";
import type { PgDb } from "../pg/pgDatabase.ts";
import { PROVINCE_CODES } from "../../domain/provinces.ts";
import { slugify } from "../../domain/text.ts";

export type CarrierRow = typeof carriers.$inferSelect;

/** The catalogue of carriers.json as table rows: slugs from names, "all" spelled out. */
export function carrierRows(): CarrierRow[] {
  return catalogue.carriers
    .map((c) => ({
      slug: slugify(c.name),
      name: c.name,
      lines: [...c.lines],
      provinces: c.provinces === "all" ? [...PROVINCE_CODES] : [...c.provinces].sort(),
    }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/**
 * Makes the carriers table hold exactly the shipped catalogue. Writes nothing when it already
 * does, so starting the server does not invalidate the read caches (carrier writes bump the
 * directory version). Quotes keep the carrier's slug and name as quoted, so replacing rows
 * never breaks a stored quote.
 */
export function loadCarriers(db: DirectoryDb): { carriers: number; changed: boolean } {
  const wanted = carrierRows();
  const stored = db.select().from(carriers).orderBy(asc(carriers.slug)).all();
  if (JSON.stringify(stored) === JSON.stringify(wanted)) return { carriers: wanted.length, changed: false };
  db.transaction((tx) => {
    tx.delete(carriers).run();
    tx.insert(carriers).values(wanted).run();
  });
  return { carriers: wanted.length, changed: true };
}

/**
 * The same for PostgreSQL (DATABASE_URL), run by every instance at start: a no-op when the
 * table already matches, so N instances starting do not announce N directory changes. Carrier
 * writes move the directory version; each replica then re-reads the 30 rows.
 */
export async function loadCarriersPg(pg: PgDb): Promise<{ carriers: number; changed: boolean }> {
  const wanted = carrierRows();
  const current = async (db: Pick<PgDb, "select">) => JSON.stringify(await db.select().from(pgCarriers).orderBy(asc(pgCarriers.slug))) === JSON.stringify(wanted);
  if (await current(pg)) return { carriers: wanted.length, changed: false };
  // Instances starting at once queue on the seed's lock; the first writes, the others find it done.
  const changed = await pg.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    if (await current(tx)) return false;
    await tx.delete(pgCarriers);
    await tx.insert(pgCarriers).values(wanted);
    return true;
  });
  return { carriers: wanted.length, changed };
}
