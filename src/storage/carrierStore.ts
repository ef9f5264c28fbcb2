import { asc, eq } from "drizzle-orm";
import { carriers, meta } from "../../db/schema.ts";
import type { Carrier } from "../domain/rating/carrier.ts";
import type { ProvinceCode } from "../domain/provinces.ts";
import type { DirectoryDb } from "./database.ts";
import { VersionedCache } from "./versionedCache.ts";

/**
 * The carrier catalogue, read whole (30 rows) and kept until the directory version moves
 * (the carriers table bumps it, see migration 0002): the quote path never queries it.
 */
export class CarrierStore {
  private readonly cache = new VersionedCache<readonly Carrier[]>(1);
  private readonly versionQuery;
  private readonly allQuery;

  constructor(db: DirectoryDb) {
    this.versionQuery = db.select({ value: meta.value }).from(meta).where(eq(meta.key, "directory_version")).prepare();
    this.allQuery = db.select().from(carriers).orderBy(asc(carriers.name)).prepare();
  }

  /** Every carrier, alphabetical by name. */
  list(): readonly Carrier[] {
    const version = this.versionQuery.get()?.value ?? 0;
    return this.cache.get("all", version, () =>
      Object.freeze(
        this.allQuery.all().map((row) => ({
          slug: row.slug,
          name: row.name,
          lines: row.lines,
          provinces: row.provinces as ProvinceCode[],
        })),
      ),
    );
  }
}
