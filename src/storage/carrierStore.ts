import { asc } from "drizzle-orm";
import { carriers } from "../../db/schema.ts";
import type { Carrier } from "../domain/rating/carrier.ts";
import type { ProvinceCode } from "../domain/provinces.ts";
import type { DirectoryDb } from "./database.ts";
import { DirectoryVersion } from "./directoryVersion.ts";
import { VersionedCache } from "./versionedCache.ts";

/**
 * The carrier catalogue, read whole (30 rows) and kept until the directory version moves
 * (the carriers table bumps it, see migration 0002): the quote path never queries it.
 */
export class CarrierStore {
  private readonly cache = new VersionedCache<readonly Carrier[]>(1);
  private readonly allQuery;

  constructor(
    db: DirectoryDb,
    private readonly directoryVersion: DirectoryVersion = new DirectoryVersion(db),
  ) {
    this.allQuery = db.select().from(carriers).orderBy(asc(carriers.name)).prepare();
  }

  /** Every carrier, alphabetical by name. */
  list(): readonly Carrier[] {
    return this.cache.get("all", this.directoryVersion.current(), () =>
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
