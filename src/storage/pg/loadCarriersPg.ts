import { asc, sql } from "drizzle-orm";
import { carriers as pgCarriers } from "../../../db/schema.pg.ts";
import { carrierRows } from "../stores/loadCarriers.ts";
import { SEED_LOCK } from "./directoryCopy.ts";
import type { PgDb } from "./pgDatabase.ts";

/**
 * loadCarriers for PostgreSQL (DATABASE_URL), run by every instance at start: a no-op when the
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
