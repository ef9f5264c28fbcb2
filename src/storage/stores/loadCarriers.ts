import { asc } from "drizzle-orm";
import catalogue from "./carriers.json" with { type: "json" };
import { carriers } from "../../../db/schema.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
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
