import { and, asc, count, desc, eq, exists, sql, type SQL } from "drizzle-orm";
import { brokerLines, brokerLocations, brokers, meta, reviews } from "../../db/schema.ts";
import { abbreviateAuthorName } from "../domain/authorName.ts";
import type { ProvinceCode } from "../domain/provinces.ts";
import type { BrokerDetail, BrokerListItem } from "../schemas/broker.ts";
import type { Review } from "../schemas/review.ts";
import type { DirectoryDb } from "./database.ts";
import { matchesFullText, toFtsQuery } from "./fullTextSearch.ts";
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
  private readonly searches = new Map<string, { page: ReturnType<BrokerStore["pageQuery"]>; total: ReturnType<BrokerStore["totalQuery"]> }>();
  private readonly cache = new VersionedCache<unknown>(5_000);
  private readonly versionQuery;
  private readonly bySlug;
  private readonly byId;
  private readonly locationsOf;
  private readonly reviewPage;

  constructor(private readonly db: DirectoryDb) {
    this.versionQuery = db.select({ value: meta.value }).from(meta).where(eq(meta.key, "directory_version")).prepare();
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
  }

  /** Changes whenever anything in the directory is written (see migration 0001). */
  version(): number {
    return this.versionQuery.get()?.value ?? 0;
  }

  search(filter: BrokerFilter, page: number, limit: number): { items: BrokerListItem[]; total: number } {
    const fts = filter.q === undefined ? undefined : toFtsQuery(filter.q);
    const params = {
      province: filter.province,
      city: filter.city,
      line: filter.insuranceType,
      fts,
    };
    const cacheKey = `search|${params.province ?? ""}|${params.city ?? ""}|${params.line ?? ""}|${fts ?? ""}|${page}|${limit}`;
    return this.cached(cacheKey, () => {
      const statements = this.searchStatements(params);
      const bound = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
      const total = statements.total.get(bound)?.n ?? 0;
      const offset = (page - 1) * limit;
      const items = offset >= total ? [] : (statements.page.all({ ...bound, limit, offset }) as BrokerListItem[]);
      return { items, total };
    });
  }

  findBySlug(slug: string): BrokerDetail | undefined {
    return this.cached(`slug|${slug}`, () => {
      const row = this.bySlug.get({ slug });
      if (!row) return undefined;
      const locations = this.locationsOf.all({ brokerId: row.id });
      const detail: BrokerDetail = {
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
      return detail;
    });
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

  private cached<T>(key: string, compute: () => T): T {
    return this.cache.get(key, this.version(), compute) as T;
  }

  private searchStatements(params: { province?: string; city?: string; line?: string; fts?: string }) {
    const shape = `${+!!params.province}${+!!params.city}${+!!params.line}${+!!params.fts}`;
    let statements = this.searches.get(shape);
    if (!statements) {
      const where = this.searchConditions(params);
      statements = { page: this.pageQuery(where), total: this.totalQuery(where) };
      this.searches.set(shape, statements);
    }
    return statements;
  }

  private searchConditions(params: { province?: string; city?: string; line?: string; fts?: string }): SQL | undefined {
    const conditions: (SQL | undefined)[] = [eq(brokers.published, true)];
    if (params.province || params.city) {
      // A broker matches a place when any of its offices is there.
      conditions.push(
        exists(
          this.db
            .select({ one: sql`1` })
            .from(brokerLocations)
            .where(
              and(
                eq(brokerLocations.brokerId, brokers.id),
                params.province ? eq(brokerLocations.province, sql.placeholder("province")) : undefined,
                params.city ? eq(brokerLocations.cityKey, sql.placeholder("city")) : undefined,
              ),
            ),
        ),
      );
    }
    if (params.line) {
      conditions.push(
        exists(
          this.db
            .select({ one: sql`1` })
            .from(brokerLines)
            .where(and(eq(brokerLines.brokerId, brokers.id), eq(brokerLines.lineKey, sql.placeholder("line")))),
        ),
      );
    }
    if (params.fts) conditions.push(matchesFullText("fts"));
    return and(...conditions);
  }

  private pageQuery(where: SQL | undefined) {
    return this.db
      .select(listColumns)
      .from(brokers)
      .where(where)
      .orderBy(asc(brokers.sortName), asc(brokers.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare();
  }

  private totalQuery(where: SQL | undefined) {
    return this.db.select({ n: count() }).from(brokers).where(where).prepare();
  }
}
