import { asc } from "drizzle-orm";
import { carriers } from "../../../db/schema.ts";
import type { Carrier } from "../../domain/rating/carrier.ts";
import type { ProvinceCode } from "../../domain/provinces.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { DirectoryVersion } from "../sqlite/directoryVersion.ts";
import { VersionedCache } from "../versionedCache.ts";
import type { CacheStats } from "../../cache/boundedCache.ts";

/**
 * The carrier catalogue, read whole (30 rows) and kept until the directory version moves
 * (the carriers table bumps it, see migration 0002): the quote path never queries it.
 */
export class CarrierStore {
  private readonly cache = new VersionedCache<readonly Carrier[]>("carriers", { maxEntries: 1, maxBytes: 1024 * 1024 });
  private readonly allQuery;

  constructor(
    db: DirectoryDb,
    private readonly directoryVersion: DirectoryVersion = new DirectoryVersion(db),
  ) {
    this.allQuery = db.select().from(carriers).orderBy(asc(carriers.name)).prepare();
  }

  /** Its cache, for the registry that /metrics reads. */
  caches(): { stats(): CacheStats }[] {
    return [this.cache];
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
