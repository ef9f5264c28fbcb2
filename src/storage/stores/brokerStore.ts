import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { brokerLocations, brokers } from "../../../db/schema.ts";
import type { ProvinceCode } from "../../domain/provinces.ts";
import { TEAM_SIZES, type TeamSize } from "../../domain/teamSize.ts";
import { isoTime } from "../../domain/isoTime.ts";
import type { BrokerDetail, BrokerListItem } from "../../schemas/broker.ts";
import type { Review } from "../../schemas/review.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { toFtsQuery } from "../search/fullTextSearch.ts";
import { SearchIndex, type IndexFilter } from "../search/searchIndex.ts";
import { roundKm, type LatLng } from "../../domain/geo/distance.ts";
import type { ReviewSort } from "../../schemas/reviewParams.ts";
import { DEFAULT_RADIUS_KM, type BrokerFacet, type BrokerSort, type FacetCounts } from "../../schemas/discovery.ts";
import { DirectoryVersion } from "../sqlite/directoryVersion.ts";
import { BrokerLookups, type DetailOffice, type DetailRow, type LocationRow } from "./brokerLookups.ts";
import type { RefRow } from "../search/brokerAttributes.ts";
import { ReviewPages } from "./reviewPages.ts";
import { VersionedCache } from "../versionedCache.ts";
import { searchAnswerBytes } from "../search/searchAnswerBytes.ts";
import { ratedAnswerJson } from "../../schemas/ratedAnswerJson.ts";
import { brokerDetailBytes, reviewPageBytes } from "./directoryReadBytes.ts";
import type { CacheStats } from "../../cache/boundedCache.ts";

/** A broker search as the procedures hand it over (already validated and folded). */
export interface BrokerFilter {
  /** Free text, as the caller typed it. */
  q?: string;
  province?: ProvinceCode;
  /** Folded city name (see foldText). */
  city?: string;
  /** Folded insurance line. */
  insuranceType?: string;
  near?: LatLng;
  radiusKm?: number;
  /** Folded language and specialty. */
  language?: string;
  specialty?: string;
  minRating?: number;
  verified?: boolean;
  sort?: BrokerSort;
  facets?: readonly BrokerFacet[];
}

export type SearchItem = BrokerListItem & { distanceKm?: number };
export interface SearchAnswer {
  items: SearchItem[];
  total: number;
  facets?: FacetCounts;
}

/** The few facts about a published broker that a lookup by id needs (its internal row id). */
export interface PublishedBroker {
  rowId: number;
  slug: string;
  name: string;
  reviewCount: number;
  /** Published reviews per star, 1 to 5 (index 0 is one star). */
  starCounts: readonly [number, number, number, number, number];
}

/** The lookup facts of a published broker whose profile is at hand (what reviewsOf needs). */
export function publishedBrokerRef(broker: BrokerDetail): PublishedBroker {
  const d = broker.rating.distribution;
  return { rowId: Number(broker.id), slug: broker.slug, name: broker.name, reviewCount: broker.reviewCount, starCounts: [d["1"], d["2"], d["3"], d["4"], d["5"]] };
}

/**
 * Details rendered per turn of the event loop (about 2 ms of work at 6–9 µs each): a request
 * arriving meanwhile waits at most that long.
 */
const RENDERED_PER_TURN = 250;
/** After an edit, rendering starts once the directory has been this quiet (see SearchIndex.renderWait). */
export const RENDER_AFTER_QUIET_MS = 2_000;

/** Broker ids are the row id written in decimal; anything else names no broker. */
const BROKER_ID_FORMAT = /^[1-9][0-9]{0,14}$/;

const listColumns = {
  id: brokers.id,
  name: brokers.name,
  slug: brokers.slug,
  description: brokers.description,
  province: brokers.province,
  city: brokers.city,
  averageRating: brokers.averageRating,
  reviewCount: brokers.reviewCount,
  isVerified: brokers.isVerified,
};

/**
 * Read access to the published directory. Every query is a prepared statement (search has
 * one per combination of filters, made on first use), and results are cached until the
 * directory version changes.
 */
export class BrokerStore {
  private readonly index: SearchIndex;
  private readonly listByIds;
  /**
   * Small (2 MiB, 1,000 results): REST and MCP keep their answers serialized in caches of their
   * own, in front of this one, so it mostly held second copies of them as objects. Counted over
   * the bench at 100,000 brokers it answered 0.1 % of detail misses, 1 % of review pages and 11 %
   * of uncached searches (REST's own cache answered 27 % of those); at 8 MiB its scattered
   * objects kept the heap about 20 MB larger after the bench (the manual's performance page, "Where the memory goes").
   */
  private readonly cache = new VersionedCache<unknown>("directory-reads", { maxEntries: 1_000, maxBytes: 2 * 1024 * 1024, secondRequest: true });
  private readonly reviewPages;
  private readonly lookups;
  private readonly publishedAfter;
  private readonly locationsInIdRange;
  private readonly publishedCount;
  private readonly linesOfIds;
  /** Whether turns of rendering the index's details are under way (see renderInTurns). */
  private rendering = false;

  constructor(
    db: DirectoryDb,
    private readonly directoryVersion: DirectoryVersion = new DirectoryVersion(db),
    /** Told of a failure of background work (rendering the index's answers), which then stops for this load. */
    private readonly onBackgroundError: (error: unknown) => void = () => {},
  ) {
    this.index = new SearchIndex(db, undefined, renderDetail);
    this.listByIds = db
      .select(listColumns)
      .from(brokers)
      .where(inArray(brokers.id, sql`(SELECT value FROM json_each(${sql.placeholder("ids")}))`))
      .prepare();
    this.lookups = new BrokerLookups(db.$client);
    this.reviewPages = new ReviewPages(db.$client);
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

  search(filter: BrokerFilter, page: number, limit: number): SearchAnswer {
    const indexFilter = indexFilterOf(filter);
    const key = `search|${JSON.stringify(indexFilter)}|${page}|${limit}`;
    const version = this.version();
    return this.cache.get<SearchAnswer>(key, version, () => {
      const { ids, items: fromIndex, distances, total, facets } = this.index.search(indexFilter, (page - 1) * limit, limit, version);
      const items: SearchItem[] = fromIndex ?? this.listItems(ids);
      if (distances) items.forEach((item, i) => (item.distanceKm = roundKm(distances[i]!)));
      const answer: SearchAnswer = { items, total, ...(facets ? { facets } : {}) };
      return answer;
    }, searchAnswerBytes);
  }

  /**
   * A page of search's answer as JSON, its items between `open` and `close(total)`, when the
   * index has every list item rendered (see SearchIndex.renderedSearch; not near a point, no
   * facets); else undefined, and the caller asks search. Like renderedDetail, the first such
   * question after the index loads a version starts rendering it.
   */
  renderedSearch(filter: BrokerFilter, page: number, limit: number, open: string, close: (total: number) => string): Uint8Array<ArrayBuffer> | undefined {
    const version = this.version();
    return this.orStartRendering(this.index.renderedSearch(indexFilterOf(filter), (page - 1) * limit, limit, version, open, close), version);
  }

  /** List items by id, in the order given, read in one query (before the index holds them in memory). */
  private listItems(ids: readonly number[]): BrokerListItem[] {
    if (ids.length === 0) return [];
    const rows = new Map(this.listByIds.all({ ids: JSON.stringify(ids) }).map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [toListItem(row)] : [];
    });
  }

  /** Its caches, for the registry that /metrics and the memory-bounds test read. */
  caches(): { stats(): CacheStats }[] {
    return [this.cache, ...this.index.caches()];
  }

  /** Prepares the search index ahead of the first request. */
  warm(): void {
    this.index.warm(this.version());
  }

  /** Loads what discovery searches, facets and in-memory list items need (about 0.3–0.6 s at 100,000 brokers). */
  warmDiscovery(): void {
    this.index.warmAttributes(this.version());
  }

  /**
   * The published broker with this slug, as its detail. Read from the search index when it
   * holds this version (no query, and no cache entry: building it costs less than keeping it),
   * else from the database.
   */
  findBySlug(slug: string): BrokerDetail | undefined {
    const inMemory = this.index.publishedDetail(slug, this.version());
    if (inMemory) return inMemory.detail && toBrokerDetail(inMemory.detail.row, inMemory.detail.locations);
    return this.cached(
      `slug|${slug}`,
      () => {
        const found = this.lookups.detail(slug);
        return found && toBrokerDetail(found.row, found.locations);
      },
      brokerDetailBytes,
    );
  }

  countPublished(): number {
    return this.cached("count-published", () => this.publishedCount.get()?.n ?? 0);
  }

  /**
   * The published broker with this slug's detail as JSON text (what `ratedAnswerJson` writes of
   * findBySlug's answer, byte for byte), when the index has it rendered (see RenderedAnswers);
   * else undefined, and the caller asks findBySlug. The first such question after the index
   * loads a version starts rendering it, a slice at a time between requests.
   */
  renderedDetail(slug: string): Uint8Array<ArrayBuffer> | undefined {
    const version = this.version();
    return this.orStartRendering(this.index.renderedDetail(slug, version), version);
  }

  /**
   * The first page of the published broker `id`'s reviews (page 1, the default limit and order,
   * every rating) as JSON text, when the index has it kept (see RenderedAnswers); else undefined.
   */
  renderedReviewPage(id: string): Uint8Array<ArrayBuffer> | undefined {
    return BROKER_ID_FORMAT.test(id) ? this.index.renderedReviewPage(Number(id), this.version()) : undefined;
  }

  /**
   * Keeps `text`, the JSON of the answer for the first page of broker `id`'s reviews as read from
   * the directory at `version`, for renderedReviewPage; not kept if the directory moved since.
   */
  keepReviewPage(id: string, version: number, text: string): void {
    if (BROKER_ID_FORMAT.test(id)) this.index.keepReviewPage(Number(id), version, text);
  }

  /** `text`, a rendered answer; when there is none, starts rendering `version` unless that is under way or done. */
  private orStartRendering(text: Uint8Array<ArrayBuffer> | undefined, version: number): Uint8Array<ArrayBuffer> | undefined {
    if (text === undefined && !this.rendering && this.index.detailsToRender(version)) this.renderInTurns();
    return text;
  }

  /**
   * Renders the index's details RENDERED_PER_TURN at a time, each turn a task of its own, so
   * requests run in between; after an edit, once the directory has been quiet RENDER_AFTER_QUIET_MS.
   */
  private renderInTurns(): void {
    this.rendering = true;
    const turn = () => {
      // The delay before the next turn; undefined when there is none.
      let next: number | undefined;
      try {
        const wait = this.index.renderWait(RENDER_AFTER_QUIET_MS);
        next = wait > 0 ? wait : this.index.renderDetails(RENDERED_PER_TURN) ? 0 : undefined;
      } catch (error) {
        this.onBackgroundError(error);
      } finally {
        if (next !== undefined) setTimeout(turn, next).unref();
        else this.rendering = false;
      }
    };
    setTimeout(turn, 0).unref();
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

  /**
   * The published broker with this id (as the API writes it), or undefined for any other text.
   * Read from the search index when it holds this version (a reviews page for any of 100,000
   * brokers then costs no query for the broker), else from the database.
   */
  findById(id: string): PublishedBroker | undefined {
    if (!BROKER_ID_FORMAT.test(id)) return undefined;
    const rowId = Number(id);
    const inMemory = this.index.publishedRef(rowId, this.version());
    if (inMemory) return inMemory.ref && toPublishedBroker(inMemory.ref);
    return this.cached(`id|${id}`, () => {
      const row = this.lookups.ref(rowId);
      return row && toPublishedBroker(row);
    });
  }

  /** A page of a published broker's published reviews in the order asked for, optionally of one star rating only. */
  reviewsOf(broker: PublishedBroker, page: number, limit: number, options: { sort?: ReviewSort; rating?: number } = {}): Review[] {
    const sort = options.sort ?? "newest";
    return this.cached(
      `reviews|${broker.rowId}|${page}|${limit}|${sort}|${options.rating ?? ""}`,
      () => this.reviewPages.page(broker.rowId, page, limit, sort, options.rating),
      reviewPageBytes,
    );
  }

  /** The insurance lines of a page of brokers (by API id), in one query (no query per broker). */
  insuranceLinesOf(ids: readonly string[]): Map<string, string[]> {
    if (ids.length === 0) return new Map();
    return this.cached(`lines|${ids.join(",")}`, () => {
      const rows = this.linesOfIds.all({ ids: JSON.stringify(ids.map(Number)) });
      return new Map(rows.map((r) => [String(r.id), r.insuranceLines]));
    });
  }

  /** `sizeOf`: a cheaper estimate than the general walk, for the kinds read on most requests. */
  private cached<T>(key: string, compute: () => T, sizeOf?: (value: Exclude<T, undefined>) => number): T {
    return this.cache.get(key, this.version(), compute, sizeOf);
  }
}

type BrokerRow = typeof brokers.$inferSelect;
type ListRow = Pick<BrokerRow, keyof typeof listColumns>;

/**
 * A broker row as a list item. Ids are written as strings; a broker without reviews has
 * averageRating 0 (the stored average is null): the contract types both as plain values.
 */
function toListItem(row: ListRow): BrokerListItem {
  return {
    id: String(row.id),
    name: row.name,
    slug: row.slug,
    description: row.description,
    province: row.province as ProvinceCode,
    city: row.city,
    averageRating: row.averageRating ?? 0,
    reviewCount: row.reviewCount,
    isVerified: row.isVerified,
  };
}

/**
 * A broker row and its offices (primary first) as the public detail shape, its fields in the
 * output schema's order: the answer goes out as built (trustedOutput, see getBroker).
 */
function toBrokerDetail(row: DetailRow, locations: readonly DetailOffice[]): BrokerDetail {
  const item = toListItem(row);
  return {
    ...item,
    // Stored as nullable for rows loaded before they were required; the contract says string.
    email: row.email ?? "",
    phone: row.phone ?? "",
    website: row.website ?? "",
    foundingYear: row.foundingYear ?? 0,
    teamSize: toTeamSize(row.teamSize),
    licenseNumber: row.licenseNumber,
    rating: {
      averageRating: item.averageRating,
      totalReviews: row.reviewCount,
      distribution: { "1": row.rating1, "2": row.rating2, "3": row.rating3, "4": row.rating4, "5": row.rating5 },
    },
    locations: locations.map((l) => ({
      id: String(l.id),
      address: l.address,
      city: l.city,
      province: l.province as ProvinceCode,
      postalCode: l.postalCode,
      phone: l.phone,
      latitude: l.latitude,
      longitude: l.longitude,
      isPrimary: l.isPrimary,
    })),
    insuranceLines: row.insuranceLines,
    specialties: row.specialties,
    languages: row.languages,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/** A detail's JSON text as REST and the widget write it (see RenderedAnswers). */
function renderDetail(row: DetailRow, locations: readonly DetailOffice[]): string {
  return ratedAnswerJson(toBrokerDetail(row, locations));
}

function toPublishedBroker(row: RefRow): PublishedBroker {
  return { rowId: row.id, slug: row.slug, name: row.name, reviewCount: row.reviewCount, starCounts: [row.r1, row.r2, row.r3, row.r4, row.r5] };
}

/** A stored band outside the known labels (a hand-edited row) reads as the smallest. */
function toTeamSize(stored: string): TeamSize {
  return (TEAM_SIZES as readonly string[]).includes(stored) ? (stored as TeamSize) : TEAM_SIZES[0];
}

/** The index's form of a search's filters (the text made safe for FTS5, the radius defaulted). */
function indexFilterOf(filter: BrokerFilter): IndexFilter {
  return {
    province: filter.province,
    city: filter.city,
    line: filter.insuranceType,
    fts: filter.q === undefined ? undefined : toFtsQuery(filter.q),
    language: filter.language,
    specialty: filter.specialty,
    verified: filter.verified,
    minRating: filter.minRating,
    near: filter.near && { lat: filter.near.lat, lng: filter.near.lng, radiusKm: filter.radiusKm ?? DEFAULT_RADIUS_KM },
    sort: filter.sort,
    facets: filter.facets,
  };
}
