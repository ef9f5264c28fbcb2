import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { brokerLocations, brokers, reviews } from "../../db/schema.ts";
import { abbreviateAuthorName } from "../domain/authorName.ts";
import type { ProvinceCode } from "../domain/provinces.ts";
import type { BrokerDetail, BrokerListItem } from "../schemas/broker.ts";
import type { Review } from "../schemas/review.ts";
import type { DirectoryDb } from "./database.ts";
import { toFtsQuery } from "./fullTextSearch.ts";
import { SearchIndex } from "./searchIndex.ts";
import { DirectoryVersion } from "./directoryVersion.ts";
import { VersionedCache } from "./versionedCache.ts";

export interface BrokerFilter {
  /** Free text, as the caller typed it. */
  q?: string;
  province?: ProvinceCode;
  /** Folded city name (see foldText). */
  city?: string;
  /** Folded insurance line. */
  insuranceType?: string;
}

export interface PublishedBroker {
  id: number;
  slug: string;
  name: string;
  reviewCount: number;
  averageRating: number | null;
}

const listColumns = {
  id: brokers.id,
  name: brokers.name,
  slug: brokers.slug,
  description: brokers.description,
  province: brokers.province,
  city: brokers.city,
  averageRating: brokers.averageRating,
  reviewCount: brokers.reviewCount,
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Read access to the published directory. Every query is a prepared statement (search has
 * one per combination of filters, made on first use), and results are cached until the
 * directory version changes.
 */
export class BrokerStore {
  private readonly index: SearchIndex;
  private readonly listByIds;
  private readonly cache = new VersionedCache<unknown>(5_000);
  private readonly bySlug;
  private readonly byId;
  private readonly locationsOf;
  private readonly reviewPage;
  private readonly publishedAfter;
  private readonly locationsInIdRange;
  private readonly publishedCount;
  private readonly linesOfIds;

  constructor(
    db: DirectoryDb,
    private readonly directoryVersion: DirectoryVersion = new DirectoryVersion(db),
  ) {
    this.index = new SearchIndex(db);
    this.listByIds = db
      .select(listColumns)
      .from(brokers)
      .where(inArray(brokers.id, sql`(SELECT value FROM json_each(${sql.placeholder("ids")}))`))
      .prepare();
    this.bySlug = db
      .select()
      .from(brokers)
      .where(and(eq(brokers.slug, sql.placeholder("slug")), eq(brokers.published, true)))
      .prepare();
    this.byId = db
      .select({ id: brokers.id, slug: brokers.slug, name: brokers.name, reviewCount: brokers.reviewCount, averageRating: brokers.averageRating })
      .from(brokers)
      .where(and(eq(brokers.id, sql.placeholder("id")), eq(brokers.published, true)))
      .prepare();
    this.locationsOf = db
      .select()
      .from(brokerLocations)
      .where(eq(brokerLocations.brokerId, sql.placeholder("brokerId")))
      .orderBy(desc(brokerLocations.isPrimary), asc(brokerLocations.id))
      .prepare();
    this.reviewPage = db
      .select()
      .from(reviews)
      .where(and(eq(reviews.brokerId, sql.placeholder("brokerId")), eq(reviews.published, true)))
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare();
    this.publishedAfter = db
      .select()
      .from(brokers)
      .where(and(sql`${brokers.id} > ${sql.placeholder("after")}`, eq(brokers.published, true)))
      .orderBy(asc(brokers.id))
      .limit(sql.placeholder("limit"))
      .prepare();
    this.locationsInIdRange = db
      .select()
      .from(brokerLocations)
      .where(sql`${brokerLocations.brokerId} between ${sql.placeholder("first")} and ${sql.placeholder("last")}`)
      .orderBy(asc(brokerLocations.brokerId), desc(brokerLocations.isPrimary), asc(brokerLocations.id))
      .prepare();
    this.publishedCount = db.select({ n: sql<number>`count(*)` }).from(brokers).where(eq(brokers.published, true)).prepare();
    // One statement for any number of ids: they travel as one JSON array parameter.
    this.linesOfIds = db
      .select({ id: brokers.id, insuranceLines: brokers.insuranceLines })
      .from(brokers)
      .where(inArray(brokers.id, sql`(SELECT value FROM json_each(${sql.placeholder("ids")}))`))
      .prepare();
  }

  /** The directory version its caches key on (see DirectoryVersion). */
  version(): number {
    return this.directoryVersion.current();
  }

  search(filter: BrokerFilter, page: number, limit: number): { items: BrokerListItem[]; total: number } {
    const indexFilter = {
      province: filter.province,
      city: filter.city,
      line: filter.insuranceType,
      fts: filter.q === undefined ? undefined : toFtsQuery(filter.q),
    };
    const key = `search|${indexFilter.province ?? ""}|${indexFilter.city ?? ""}|${indexFilter.line ?? ""}|${indexFilter.fts ?? ""}|${page}|${limit}`;
    const version = this.version();
    return this.cache.get(key, version, () => {
      const { ids, total } = this.index.search(indexFilter, (page - 1) * limit, limit, version);
      if (ids.length === 0) return { items: [], total };
      const rows = new Map(this.listByIds.all({ ids: JSON.stringify(ids) }).map((row) => [row.id, row]));
      const items = ids.map((id) => rows.get(id)).filter((row) => row !== undefined) as BrokerListItem[];
      return { items, total };
    }) as { items: BrokerListItem[]; total: number };
  }

  /** Prepares the search index ahead of the first request. */
  warm(): void {
    this.index.warm(this.version());
  }

  findBySlug(slug: string): BrokerDetail | undefined {
    return this.cached(`slug|${slug}`, () => {
      const row = this.bySlug.get({ slug });
      if (!row) return undefined;
      return toBrokerDetail(row, this.locationsOf.all({ brokerId: row.id }));
    });
  }

  countPublished(): number {
    return this.cached("count-published", () => this.publishedCount.get()?.n ?? 0);
  }

  /**
   * The whole published directory as broker details, `chunkSize` brokers at a time in id
   * order, for exports that must not hold it all in memory. Two prepared queries per chunk
   * (brokers after the last id seen, then their offices by id range), never one per broker.
   * Each broker appears once even if the directory changes between chunks.
   */
  *publishedDetailChunks(chunkSize = 250): Generator<BrokerDetail[]> {
    let after = 0;
    for (;;) {
      const rows = this.publishedAfter.all({ after, limit: chunkSize });
      if (rows.length === 0) return;
      const first = rows[0]!.id;
      const last = rows.at(-1)!.id;
      const officesByBroker = new Map<number, LocationRow[]>();
      for (const office of this.locationsInIdRange.all({ first, last })) {
        const list = officesByBroker.get(office.brokerId);
        if (list) list.push(office);
        else officesByBroker.set(office.brokerId, [office]);
      }
      yield rows.map((row) => toBrokerDetail(row, officesByBroker.get(row.id) ?? []));
      if (rows.length < chunkSize) return;
      after = last;
    }
  }

  findById(id: number): PublishedBroker | undefined {
    return this.cached(`id|${id}`, () => this.byId.get({ id }));
  }

  /** A page of a published broker's published reviews, newest first. */
  reviewsOf(brokerId: number, page: number, limit: number): Review[] {
    return this.cached(`reviews|${brokerId}|${page}|${limit}`, () =>
      this.reviewPage.all({ brokerId, limit, offset: (page - 1) * limit }).map((r) => ({
        id: r.id,
        brokerId: r.brokerId,
        authorName: abbreviateAuthorName(r.authorName),
        rating: r.rating,
        title: r.title,
        body: r.body,
        createdAt: iso(r.createdAt),
      })),
    );
  }

  /** The insurance lines of a page of brokers, in one query (no query per broker). */
  insuranceLinesOf(ids: readonly number[]): Map<number, string[]> {
    if (ids.length === 0) return new Map();
    return this.cached(`lines|${ids.join(",")}`, () => {
      const rows = this.linesOfIds.all({ ids: JSON.stringify(ids) });
      return new Map(rows.map((r) => [r.id, r.insuranceLines]));
    });
  }

  private cached<T>(key: string, compute: () => T): T {
    return this.cache.get(key, this.version(), compute) as T;
  }
}

type BrokerRow = typeof brokers.$inferSelect;
type LocationRow = typeof brokerLocations.$inferSelect;

/** A broker row and its offices (primary first) as the public detail shape. */
function toBrokerDetail(row: BrokerRow, locations: readonly LocationRow[]): BrokerDetail {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    province: row.province as ProvinceCode,
    city: row.city,
    averageRating: row.averageRating,
    reviewCount: row.reviewCount,
    phone: row.phone,
    email: row.email,
    website: row.website,
    licenseNumber: row.licenseNumber,
    yearEstablished: row.yearEstablished,
    insuranceLines: row.insuranceLines,
    specialties: row.specialties,
    languages: row.languages,
    locations: locations.map((l) => ({
      id: l.id,
      address: l.address,
      city: l.city,
      province: l.province as ProvinceCode,
      postalCode: l.postalCode,
      phone: l.phone,
      latitude: l.latitude,
      longitude: l.longitude,
      isPrimary: l.isPrimary,
    })),
    rating: {
      average: row.averageRating,
      count: row.reviewCount,
      distribution: { "1": row.rating1, "2": row.rating2, "3": row.rating3, "4": row.rating4, "5": row.rating5 },
    },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
