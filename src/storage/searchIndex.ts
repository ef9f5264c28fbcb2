import { and, asc, eq, sql } from "drizzle-orm";
import { brokerLines, brokerLocations, brokers } from "../../db/schema.ts";
import { PROVINCE_CODES, type ProvinceCode } from "../domain/provinces.ts";
import type { BrokerFacet, BrokerSort, FacetCounts } from "../schemas/discovery.ts";
import { BrokerAttributes } from "./brokerAttributes.ts";
import type { DirectoryDb } from "./database.ts";
import { countFacet } from "./facetCounts.ts";
import { fullTextMatches } from "./fullTextSearch.ts";
import { BoundedCache, type CacheStats } from "../cache/boundedCache.ts";
import { estimateBytes } from "../cache/estimateBytes.ts";
import { globalOrder, orderRanks } from "./rankOrder.ts";
import { intersectAll, minRatingSet, nearSet, valueAt, verifiedSet, type RankSet } from "./rankSets.ts";

export interface IndexFilter {
  province?: string;
  /** Folded city. */
  city?: string;
  /** Folded insurance line. */
  line?: string;
  /** A query already made safe by toFtsQuery. */
  fts?: string;
  /** Folded language and specialty names. */
  language?: string;
  specialty?: string;
  verified?: boolean;
  minRating?: number;
  near?: { lat: number; lng: number; radiusKm: number };
  sort?: BrokerSort;
  facets?: readonly BrokerFacet[];
}

export interface IndexPage {
  ids: number[];
  /** With near: km to each broker's nearest office in range, aligned with ids. */
  distances?: number[];
  total: number;
  facets?: FacetCounts;
}

/** The filter sets of one search, by what a facet leaves out. */
type Part = "location" | "line" | "text" | "language" | "specialty" | "verified" | "rating" | "near";
const FACET_EXCLUDES: Record<BrokerFacet, Part> = { province: "location", city: "location", insuranceType: "line", language: "language" };

/**
 * Filter sets kept: 64 MiB (ranks, values, keys and overhead) and 20,000 sets at most; beyond
 * either the least recently used sets go. A set that matched nothing still costs its key and overhead.
 */
const SET_LIMITS = { maxEntries: 20_000, maxBytes: 64 * 1024 * 1024 };

/**
 * An in-memory index over the published directory, rebuilt from the database whenever the
 * directory version moves (a cache, never the source of truth).
 *
 * Each published broker has a rank: its position in alphabetical order. Every filter value
 * (a province, a city, a line, a text query) maps to the sorted ranks of its brokers, read
 * once with one indexed query and kept. A search intersects those sorted arrays; the total is
 * the intersection's length and a page is a slice of it, so counting 40,000 Ontario brokers
 * costs the same as showing twenty. SQL COUNT over EXISTS was 100–500 ms at 100,000 brokers.
 */
export class SearchIndex {
  private version = -1;
  private rankToId = new Int32Array(0);
  private idToRank = new Map<number, number>();
  private readonly sets = new BoundedCache<RankSet>("search-index", SET_LIMITS, estimateBytes);
  private attributesOfVersion: BrokerAttributes | undefined;
  private readonly orders = new Map<"rating" | "reviews", Int32Array>();
  private allRanks = new Int32Array(0);
  private readonly publishedInOrder;
  private readonly inProvince;
  private readonly inProvinceCity;
  private readonly inCity;
  private readonly withLine;

  constructor(private readonly db: DirectoryDb) {
    this.publishedInOrder = db
      .select({ id: brokers.id })
      .from(brokers)
      .where(eq(brokers.published, true))
      .orderBy(asc(brokers.sortName), asc(brokers.id))
      .prepare();
    this.inProvince = db
      .selectDistinct({ id: brokerLocations.brokerId })
      .from(brokerLocations)
      .where(eq(brokerLocations.province, sql.placeholder("province")))
      .prepare();
    this.inProvinceCity = db
      .selectDistinct({ id: brokerLocations.brokerId })
      .from(brokerLocations)
      .where(and(eq(brokerLocations.province, sql.placeholder("province")), eq(brokerLocations.cityKey, sql.placeholder("city"))))
      .prepare();
    this.inCity = db
      .selectDistinct({ id: brokerLocations.brokerId })
      .from(brokerLocations)
      .where(eq(brokerLocations.cityKey, sql.placeholder("city")))
      .prepare();
    this.withLine = db
      .select({ id: brokerLines.brokerId })
      .from(brokerLines)
      .where(eq(brokerLines.lineKey, sql.placeholder("line")))
      .prepare();
  }

  stats(): CacheStats {
    return this.sets.stats();
  }

  /** Builds the alphabetical order now, so the first search after start does not pay for it. */
  warm(version: number): void {
    this.refresh(version);
  }

  /**
   * One page of matches in the order asked for, the number of all matches, and (when asked)
   * facet counts: each facet counts the brokers matching every other filter.
   */
  search(filter: IndexFilter, offset: number, limit: number, version: number): IndexPage {
    this.refresh(version);
    const parts = this.partsOf(filter);
    const matches = this.intersect(parts);
    const ordered = orderRanks(matches, filter.sort ?? "name", {
      near: parts.get("near"),
      text: parts.get("text"),
      globalOrder: (sort) => this.globalOrder(sort),
    });
    const page = ordered.subarray(Math.min(offset, ordered.length), Math.min(offset + limit, ordered.length));
    const ids = Array.from(page, (rank) => this.rankToId[rank]!);
    const near = parts.get("near");
    const result: IndexPage = { ids, total: matches.length };
    if (near) result.distances = Array.from(page, (rank) => valueAt(near, rank) ?? 0);
    if (filter.facets?.length) result.facets = this.facets(filter, parts);
    return result;
  }

  private partsOf(filter: IndexFilter): Map<Part, RankSet> {
    const parts = new Map<Part, RankSet>();
    const { province, city, line, fts, language, specialty, verified, minRating, near } = filter;
    if (province && city) parts.set("location", this.set(`pc|${province}|${city}`, () => this.inProvinceCity.all({ province, city })));
    else if (province) parts.set("location", this.set(`p|${province}`, () => this.inProvince.all({ province })));
    else if (city) parts.set("location", this.set(`c|${city}`, () => this.inCity.all({ city })));
    if (line) parts.set("line", this.set(`l|${line}`, () => this.withLine.all({ line })));
    if (fts) parts.set("text", this.set(`q|${fts}`, () => fullTextMatches(this.db, fts)));
    if (language) parts.set("language", this.derived(`lang|${language}`, (a) => ({ ranks: a.ranksWith(a.languagesOf, a.languages.find(language)) })));
    if (specialty) parts.set("specialty", this.derived(`spec|${specialty}`, (a) => ({ ranks: a.ranksWith(a.specialtiesOf, a.specialties.find(specialty)) })));
    if (verified !== undefined) parts.set("verified", this.derived(`v|${verified}`, (a) => verifiedSet(a, verified)));
    if (minRating !== undefined && minRating > 0) parts.set("rating", this.derived(`r|${minRating}`, (a) => minRatingSet(a, minRating)));
    if (near) parts.set("near", this.derived(`n|${near.lat}|${near.lng}|${near.radiusKm}`, (a) => nearSet(a, near, near.radiusKm)));
    return parts;
  }

  /** Ranks in every part but `without` (all published brokers when none applies). */
  private intersect(parts: Map<Part, RankSet>, without?: Part): Int32Array {
    const sets = [...parts].filter(([part]) => part !== without).map(([, set]) => set.ranks);
    return sets.length === 0 ? this.allRanks : intersectAll(sets);
  }

  private facets(filter: IndexFilter, parts: Map<Part, RankSet>): FacetCounts {
    const attributes = this.attributes();
    const facets: FacetCounts = {};
    for (const facet of filter.facets ?? []) {
      const matches = this.intersect(parts, FACET_EXCLUDES[facet]);
      // A location facet keeps the other location filter at office level: city=ottawa counts provinces of Ottawa offices.
      const office =
        facet === "province" && filter.city ? { cityId: attributes.cities.find(filter.city) ?? -1 }
        : facet === "city" && filter.province ? { provinceIndex: PROVINCE_CODES.indexOf(filter.province as ProvinceCode) }
        : {};
      facets[facet] = countFacet(attributes, matches, facet, office);
    }
    return facets;
  }

  /** Per-version broker attributes, loaded on first need (two queries). */
  private attributes(): BrokerAttributes {
    this.attributesOfVersion ??= new BrokerAttributes(this.db, this.idToRank);
    return this.attributesOfVersion;
  }

  private globalOrder(sort: "rating" | "reviews"): Int32Array {
    let order = this.orders.get(sort);
    if (!order) this.orders.set(sort, (order = globalOrder(this.attributes(), sort)));
    return order;
  }

  /** A set computed from the attributes rather than read by a query, kept like the others. */
  private derived(key: string, compute: (attributes: BrokerAttributes) => RankSet): RankSet {
    const cached = this.sets.get(key);
    if (cached) return cached;
    return this.keep(key, compute(this.attributes()));
  }

  private refresh(version: number): void {
    if (version === this.version) return;
    const rows = this.publishedInOrder.all();
    this.rankToId = Int32Array.from(rows, (r) => r.id);
    this.idToRank = new Map(rows.map((r, rank) => [r.id, rank]));
    this.allRanks = Int32Array.from({ length: rows.length }, (_, rank) => rank);
    this.attributesOfVersion = undefined;
    this.orders.clear();
    this.sets.clear();
    this.version = version;
  }

  /** The sorted ranks of the published brokers among `rows` (with their score, if any), computed once per version. */
  private set(key: string, load: () => { id: number; score?: number }[]): RankSet {
    const cached = this.sets.get(key);
    if (cached) return cached;
    const pairs: [number, number][] = [];
    for (const { id, score } of load()) {
      const rank = this.idToRank.get(id);
      if (rank !== undefined) pairs.push([rank, score ?? 0]);
    }
    pairs.sort((a, b) => a[0] - b[0]);
    const ranks = Int32Array.from(pairs, (p) => p[0]);
    const scored = pairs.some((p) => p[1] !== 0);
    return this.keep(key, scored ? { ranks, values: Float64Array.from(pairs, (p) => p[1]) } : { ranks });
  }

  /** Keeps a set (the bounded cache evicts the least recently used past its caps). */
  private keep(key: string, set: RankSet): RankSet {
    this.sets.set(key, set);
    return set;
  }
}

