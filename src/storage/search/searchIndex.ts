import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { kmOfChord2 } from "../../domain/geo/distance.ts";
import { brokerLines, brokerLocations, brokers } from "../../../db/schema.ts";
import { PROVINCE_CODES, type ProvinceCode } from "../../domain/provinces.ts";
import type { BrokerListItem } from "../../schemas/broker.ts";
import type { BrokerFacet, BrokerSort, FacetCounts } from "../../schemas/discovery.ts";
import { BrokerAttributes, type RefRow } from "./brokerAttributes.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import type { DetailOffice, DetailRow } from "./detailRow.ts";
import { countFacet, facetCombos } from "./facetCounts.ts";
import { withComboCounts } from "./rankCombos.ts";
import { fullTextIds, fullTextScores } from "./fullTextSearch.ts";
import { BoundedCache, type CacheStats } from "../../cache/boundedCache.ts";
import { DirectoryChanges } from "./directoryChanges.ts";
import { indexFilesDirectoryOf } from "./fileBackedBytes.ts";
import { listItemHead } from "./listItemJson.ts";
import { RenderedAnswers } from "./renderedAnswers.ts";
import { globalOrder, orderRanks, reorder, type GlobalOrder } from "./rankOrder.ts";
import { atLeast, intersectAll, nearSet, rankSetBytes, valueAt, verifiedSet, withMembership, type RankSet } from "./rankSets.ts";

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
  /** The page's list items, when the attributes are loaded (else the caller reads them by id). */
  items?: BrokerListItem[];
  /** With near: km to each broker's nearest office in range, aligned with ids. */
  distances?: number[];
  total: number;
  facets?: FacetCounts;
}

/** The filter sets of one search, by what a facet leaves out. */
type Part = "location" | "line" | "text" | "language" | "specialty" | "verified" | "near";
const FACET_EXCLUDES: Record<BrokerFacet, Part> = { province: "location", city: "location", insuranceType: "line", language: "language" };

/**
 * Filter sets kept: 16 MiB (ranks, values, membership maps, keys and overhead) and 20,000 sets at most; beyond
 * either the least recently used sets go. A set that matched nothing still costs its key and overhead.
 */
const SET_LIMITS = { maxEntries: 20_000, maxBytes: 16 * 1024 * 1024 };

/** When loading the attributes is followed by a full garbage collection, and how it is run. */
export interface CollectAfterLoad {
  minBrokers: number;
  collect: () => void;
  /** A young collection, run every few thousand rows while the details load (see DetailColumns.load). */
  collectYoung?: () => void;
}

/**
 * Loading the attributes of 100,000 brokers reads every row into garbage (the rows, their JSON
 * lists, the list text before it is chunked): the process went from 50 to 300 MB of anonymous
 * memory, and the collector, left to itself, let the heap keep growing from there under load
 * (359 MB after the bench's scenarios, 220 MB with this). One full collection after such a load takes
 * about 30 ms, beside the load's 500–900 ms; small directories leave little garbage and skip it.
 */
const COLLECT_AFTER_LARGE_LOADS: CollectAfterLoad = { minBrokers: 10_000, collect: () => Bun.gc(true), collectYoung: () => Bun.gc(false) };

/**
 * An in-memory index over the published directory, brought up to date whenever the directory
 * version moves: review writes are applied in place from the change journal, anything else
 * rebuilds it from the database (a cache, never the source of truth; see refresh).
 *
 * Each published broker has a rank: its position in alphabetical order. Every filter value
 * (a province, a city, a line, a text query) maps to the sorted ranks of its brokers, read
 * once with one indexed query and kept. A search intersects those sorted arrays; the total is
 * the intersection's length and a page is a slice of it, so counting 40,000 Ontario brokers
 * costs the same as showing twenty. SQL COUNT over EXISTS was 100–500 ms at 100,000 brokers.
 *
 * How the discovery parameters (near, sort, language, rating, facets) stay fast on it:
 * - Filters: a search intersects sorted rank sets, testing membership in a one-byte-per-broker
 *   map for large reused sets (a province, a language) and galloping through the others.
 *   `minRating` is a test on each match against the per-version array of averages (no set per
 *   threshold).
 * - Near: sets are measured from a grid-ordered copy of every office's position as a unit
 *   vector (officeGrid.ts): the tenth-of-a-degree cells a search's circle overlaps form one
 *   contiguous run per row, and only those offices are measured (a near set is computed per
 *   search, not kept: points and radii rarely repeat). Each office is measured by its squared
 *   chord to the centre (three differences and three products, no trigonometry); the chord
 *   grows with the great-circle distance, so each broker keeps its smallest, and only the
 *   page's brokers become kilometres (the haversine's value to a micrometre). An office within
 *   a rounding error of the radius is tested in kilometres, so the set is exactly the brokers
 *   with an office in range. Distance ties at the same millimetre of chord go alphabetical. The
 *   set is written into scratch arrays the index owns, so a search allocates nothing per office.
 * - Facets: counted by combination. 100,000 brokers share a few hundred distinct lists of
 *   lines, a few dozen of languages and a few thousand of office places, so each match adds one
 *   to its combination and the combinations' counts are then spread over their values (one
 *   increment per match and facet instead of one per value and office). With facets on province
 *   and city and neither filter in the search, both come from one count; facet values are
 *   ordered by one numeric key each. A facet's count is one pass over the combinations of the
 *   brokers matching the other filters (the search's own matches when the facet's filter is not
 *   in the search).
 * - Orders: distance and relevance pack (measure, rank) into one float; rating and reviews use
 *   each match's position in a per-version order. Only the first `page × limit` keys are picked
 *   (a bounded heap) and sorted, never all 40,000 matches.
 * - Pages: list items come from memory too (the attributes hold each broker's name, slug,
 *   description and primary place), so no request scans rows in SQL, and only a free-text query
 *   (FTS5, without bm25 unless sort=relevance) touches SQLite.
 * - Details: a broker's detail by slug comes from memory as well (detailColumns.ts, slugTable.ts:
 *   about 28 MB at 100,000 brokers), so a detail miss reads no SQLite either (issue 30).
 *
 * When the directory changes: the triggers of migration 0009 write each change, broker by
 * broker, to the `directory_changes` journal (from any process: the CLI, a second server). On
 * the next search after the directory version moves, the index reads the journal since the last
 * change it applied. A review only moves a broker's average and count: those brokers' ratings
 * are read (one query) and updated in place, and the rating and reviews orders re-place them (a
 * merge, not a sort): 10–60 ms at 100,000 brokers on the shared 2-core machine, where the
 * rebuild it replaces took 1.3–1.8 s (3–6 s while other benchmarks ran). Anything else (a broker
 * edited, published or unpublished, an office or line changed, more than 2,000 changes at once,
 * or a journal pruned past the index: it keeps the latest 10,000) rebuilds the per-version
 * arrays from two sequential table scans: 0.6–1 s of CPU at 100,000 brokers (about 2 s while
 * other benchmarks run), 15 ms at 1,000. Making those incremental too (a broker's lists and
 * offices patched in place) is the next step if broker edits become frequent. "Correct" means
 * the first answer after a write is exactly what an index built from scratch on the written
 * database answers (test/http/search-freshness.test.ts: reviews written, unpublished and
 * deleted, broker edits, renames, unpublishing, a burst past the delta limit). The arrays are
 * built before the server listens (issue 25 item 17); a search arriving before they are loaded
 * is answered from the alphabetical index with its page read by id.
 */
export class SearchIndex {
  private version = -1;
  private rankToId = new Int32Array(0);
  /** The rank of each broker id (index), -1 for ids not published. */
  private rankOfId = new Int32Array(0);
  private readonly sets = new BoundedCache<RankSet>("search-index", SET_LIMITS, rankSetBytes);
  private readonly changes: DirectoryChanges;
  /**
   * Space a search writes its intermediate results into (one number per rank, reused by every
   * search: they run one at a time), so a search over 40,000 matches allocates only its page.
   */
  private scratch = { matches: new Int32Array(0), facet: new Int32Array(0), keys: new Float64Array(0) };
  /** The last journal entry this index reflects (see DirectoryChanges). */
  private appliedChange = 0;
  private attributesOfVersion: BrokerAttributes | undefined;
  /** The answers rendered (or being rendered) from the loaded attributes, and the attributes last tried. */
  private rendered: RenderedAnswers | undefined;
  private renderTried: BrokerAttributes | undefined;
  /** How many times the index was built from the database (the first at start), and when last. */
  private rebuilds = 0;
  private rebuiltAt = 0;
  private readonly orders = new Map<"rating" | "reviews", GlobalOrder>();
  private allRanks = new Int32Array(0);
  private readonly publishedInOrder;
  private readonly inProvince;
  private readonly inProvinceCity;
  private readonly inCity;
  private readonly withLine;
  private readonly ratingsOf;

  constructor(
    private readonly db: DirectoryDb,
    private readonly collectAfterLoad: CollectAfterLoad = COLLECT_AFTER_LARGE_LOADS,
    /** A detail's JSON text, for the answers kept rendered (see RenderedAnswers); without it, none are. */
    private readonly renderDetail?: (row: DetailRow, offices: DetailOffice[]) => string,
  ) {
    this.changes = new DirectoryChanges(db);
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
    this.ratingsOf = db
      .select({
        id: brokers.id,
        averageRating: brokers.averageRating,
        reviewCount: brokers.reviewCount,
        r1: brokers.rating1,
        r2: brokers.rating2,
        r3: brokers.rating3,
        r4: brokers.rating4,
        r5: brokers.rating5,
      })
      .from(brokers)
      .where(inArray(brokers.id, sql`(SELECT value FROM json_each(${sql.placeholder("ids")}))`))
      .prepare();
  }

  caches(): { stats(): CacheStats }[] {
    return [this.sets];
  }

  /** Builds the alphabetical order now, so the first search after start does not pay for it. */
  warm(version: number): void {
    this.refresh(version);
  }

  /** Loads the per-version attributes now (discovery, facets and in-memory list items), off any request. */
  warmAttributes(version: number): void {
    this.refresh(version);
    this.attributes();
  }

  /**
   * One page of matches in the order asked for, the number of all matches, and (when asked)
   * facet counts: each facet counts the brokers matching every other filter.
   */
  search(filter: IndexFilter, offset: number, limit: number, version: number): IndexPage {
    this.refresh(version);
    const { parts, matches, page } = this.pageOf(filter, offset, limit);
    const near = parts.get("near");
    const ids = Array.from(page, (rank) => this.rankToId[rank]!);
    const result: IndexPage = { ids, total: matches.length };
    const attributes = this.attributesOfVersion;
    if (attributes) {
      const { averageRating, reviewCount, verified, list } = attributes;
      result.items = Array.from(page, (rank) => list.item(rank, this.rankToId[rank]!, averageRating[rank]!, reviewCount[rank]!, verified[rank] === 1));
    }
    if (near) result.distances = Array.from(page, (rank) => kmOfChord2(valueAt(near, rank) ?? 0));
    if (filter.facets?.length) result.facets = this.facets(filter, parts, matches);
    return result;
  }

  /**
   * A page of search results as JSON (see RenderedAnswers.listItems: the items between `open`
   * and `close(total)`), on renderedDetail's terms: undefined unless the index is at `version`
   * with every list item rendered, and for a search near a point (each item then has its
   * distance) or with facets, which are answered as before.
   */
  renderedSearch(filter: IndexFilter, offset: number, limit: number, version: number, open: string, close: (total: number) => string): Uint8Array<ArrayBuffer> | undefined {
    const rendered = this.renderedAt(version);
    if (rendered === undefined || !rendered.itemsDone || filter.near || filter.facets?.length) return undefined;
    const { matches, page } = this.pageOf(filter, offset, limit);
    return rendered.listItems(page, this.attributesOfVersion!, open, close(matches.length));
  }

  /** The matches of a search (valid until the next search) and the ranks of its page, in the order asked for. */
  private pageOf(filter: IndexFilter, offset: number, limit: number): { parts: Map<Part, RankSet>; matches: Int32Array; page: Int32Array } {
    const parts = this.partsOf(filter);
    const matches = this.intersect(parts, filter.minRating, this.scratch.matches);
    const first = orderRanks(matches, filter.sort ?? "name", offset + limit, {
      near: parts.get("near"),
      text: parts.get("text"),
      globalOrder: (sort) => this.globalOrder(sort),
      scratch: this.scratch.keys,
    });
    return { parts, matches, page: first.subarray(Math.min(offset, first.length)) };
  }

  /**
   * The lookup facts of a broker by id, from memory: `{ ref }` (undefined when it is not
   * published) if the index is at `version` with its attributes loaded, else undefined (ask the
   * database). It never brings the index up to date itself: a lookup must not pay for a rebuild.
   */
  publishedRef(id: number, version: number): { ref: RefRow | undefined } | undefined {
    const attributes = this.attributesOfVersion;
    if (version !== this.version || !attributes) return undefined;
    const rank = this.rankOf(id);
    return { ref: rank < 0 ? undefined : attributes.ref(rank, id) };
  }

  /**
   * A published broker's detail by slug, from memory, on the same terms as publishedRef:
   * `{ detail }` (undefined when no published broker has this slug) if the index is at
   * `version` with its attributes loaded, else undefined (ask the database).
   */
  publishedDetail(slug: string, version: number): { detail: { row: DetailRow; locations: DetailOffice[] } | undefined } | undefined {
    const attributes = this.attributesOfVersion;
    if (version !== this.version || !attributes) return undefined;
    const rank = attributes.rankOfSlug(slug);
    if (rank < 0) return { detail: undefined };
    const detail = attributes.detail(rank, this.rankToId[rank]!);
    return detail && { detail };
  }

  /**
   * A published broker's detail as JSON text already rendered (see RenderedAnswers), on
   * publishedDetail's terms; undefined for anything not at hand (the index not at `version`, the
   * detail not rendered yet, no published broker with exactly this slug): build it as before.
   */
  renderedDetail(slug: string, version: number): Uint8Array<ArrayBuffer> | undefined {
    const rendered = this.renderedAt(version);
    if (rendered === undefined) return undefined;
    const rank = this.attributesOfVersion!.rankOfSlug(slug);
    return rank < 0 ? undefined : rendered.detail(rank);
  }

  /** The first review page of the published broker `id` as kept (see RenderedAnswers), on renderedDetail's terms. */
  renderedReviewPage(id: number, version: number): Uint8Array<ArrayBuffer> | undefined {
    const rank = this.rankOf(id);
    return rank < 0 ? undefined : this.renderedAt(version)?.reviewPage(rank, version);
  }

  /** Keeps `text` as the first review page of the published broker `id`, written from the directory at `version` (else not kept). */
  keepReviewPage(id: number, version: number, text: string): void {
    const rank = this.rankOf(id);
    if (rank >= 0 && version === this.version) this.renderedOfLoad()?.keepReviewPage(rank, version, text);
  }

  /** Whether renderDetails has details to render: the index is at `version` with attributes whose details are not all rendered. */
  detailsToRender(version: number): boolean {
    const attributes = this.attributesOfVersion;
    if (this.renderDetail === undefined || attributes === undefined || version !== this.version) return false;
    return this.rendered?.source === attributes ? !this.rendered.detailsDone : this.renderTried !== attributes;
  }

  /**
   * How long rendering should wait (ms) for the directory to have been quiet `quietMs` since the
   * index was last built from it; 0 for the build at start. Edits in a row (the console, an
   * import broker by broker) each rebuild the index, and rendering every build in between would
   * write its file (about 100 MB at 100,000 brokers) for nothing.
   */
  renderWait(quietMs: number): number {
    return this.rebuilds <= 1 ? 0 : Math.max(0, this.rebuiltAt + quietMs - performance.now());
  }

  /** Renders up to `count` more details of the loaded attributes (see RenderedAnswers). Answers whether more remain; a failure ends them for this load. */
  renderDetails(count: number): boolean {
    const rendered = this.renderedOfLoad();
    if (rendered === undefined) return false;
    try {
      return rendered.renderDetails(count, this.detailText, this.itemHeadText);
    } catch (error) {
      // Not tried again for this load: its answers are built as before.
      rendered.close();
      this.rendered = undefined;
      throw error;
    }
  }

  /**
   * The rendered answers of the loaded attributes, opened on first need (once per load: a
   * directory without a file to write keeps none), or undefined.
   */
  private renderedOfLoad(): RenderedAnswers | undefined {
    const attributes = this.attributesOfVersion;
    if (attributes === undefined || this.renderDetail === undefined) return undefined;
    if (this.rendered?.source === attributes) return this.rendered;
    this.rendered?.close();
    this.rendered = undefined;
    if (this.renderTried === attributes) return undefined;
    this.renderTried = attributes;
    this.rendered = RenderedAnswers.open(attributes, this.rankToId.length, indexFilesDirectoryOf(this.db));
    return this.rendered;
  }

  /** The rendered answers of the loaded attributes, if the index is at `version`. */
  private renderedAt(version: number): RenderedAnswers | undefined {
    const rendered = this.rendered;
    return rendered !== undefined && version === this.version && rendered.source === this.attributesOfVersion ? rendered : undefined;
  }

  /** A rank's detail as JSON text, from the loaded attributes. */
  private readonly detailText = (rank: number): string | undefined => {
    const detail = this.attributesOfVersion?.detail(rank, this.rankToId[rank]!);
    return detail && this.renderDetail?.(detail.row, detail.locations);
  };

  /** A rank's list item as JSON up to its ratings (see listItemHead), from the loaded attributes. */
  private readonly itemHeadText = (rank: number): string => listItemHead(this.attributesOfVersion!.list.item(rank, this.rankToId[rank]!, 0, 0, false));

  private partsOf(filter: IndexFilter): Map<Part, RankSet> {
    const parts = new Map<Part, RankSet>();
    const { province, city, line, fts, language, specialty, verified, minRating, near } = filter;
    if (province && city) parts.set("location", this.set(`pc|${province}|${city}`, () => this.inProvinceCity.values({ province, city })));
    else if (province) parts.set("location", this.set(`p|${province}`, () => this.inProvince.values({ province })));
    else if (city) parts.set("location", this.set(`c|${city}`, () => this.inCity.values({ city })));
    if (line) parts.set("line", this.set(`l|${line}`, () => this.withLine.values({ line })));
    if (fts) parts.set("text", this.textSet(fts, filter.sort === "relevance"));
    if (language) parts.set("language", this.derived(`lang|${language}`, (a) => ({ ranks: a.ranksWith(a.languagesOf, a.languages.find(language)) })));
    if (specialty) parts.set("specialty", this.derived(`spec|${specialty}`, (a) => ({ ranks: a.ranksWith(a.specialtiesOf, a.specialties.find(specialty)) })));
    if (verified !== undefined) parts.set("verified", this.derived(`v|${verified}`, (a) => verifiedSet(a, verified)));
    // A near set is computed each time, not kept: points and radii rarely repeat, and each kept
    // set (up to 30,000 ranks with their distances) would push reusable sets out of the cache.
    // It lives in the attributes' scratch space, valid until the next search computes one.
    if (near) parts.set("near", nearSet(this.attributes(), near, near.radiusKm));
    return parts;
  }

  /** Ranks in every part but `without` (all published brokers when none applies). */
  /** Written into `into` (scratch space) unless one set alone answers; valid until `into` is written again. */
  private intersect(parts: Map<Part, RankSet>, minRating: number | undefined, into: Int32Array, without?: Part): Int32Array {
    const sets = [...parts].filter(([part]) => part !== without).map(([, set]) => set);
    const matches = sets.length === 0 ? this.allRanks : intersectAll(sets, into);
    // minRating is a test on each match rather than a set: thresholds are endless, the test cheap.
    return minRating !== undefined && minRating > 0 ? atLeast(matches, this.attributes().averageRating, minRating, into) : matches;
  }

  private facets(filter: IndexFilter, parts: Map<Part, RankSet>, allMatches: Int32Array): FacetCounts {
    const attributes = this.attributes();
    const facets: FacetCounts = {};
    const asked = filter.facets ?? [];
    // A facet whose own filter is not in the search counts the search's matches themselves:
    // those facets' combinations are counted in one walk over the matches.
    const ownsMatches = (facet: BrokerFacet) => !parts.has(FACET_EXCLUDES[facet]);
    const shared = [...new Set(asked.filter(ownsMatches).map((facet) => facetCombos(attributes, facet)))];
    return withComboCounts(shared, allMatches, (countsOf) => {
      for (const facet of asked) {
        // A location facet keeps the other location filter at office level: city=ottawa counts provinces of Ottawa offices.
        const office =
          facet === "province" && filter.city ? { cityId: attributes.cities.find(filter.city) ?? -1 }
          : facet === "city" && filter.province ? { provinceIndex: PROVINCE_CODES.indexOf(filter.province as ProvinceCode) }
          : {};
        facets[facet] = ownsMatches(facet)
          ? countFacet(attributes, allMatches, facet, office, countsOf(facetCombos(attributes, facet)))
          : countFacet(attributes, this.intersect(parts, filter.minRating, this.scratch.facet, FACET_EXCLUDES[facet]), facet, office);
      }
      return facets;
    });
  }

  /** Per-version broker attributes, loaded on first need (two queries, a collection if the load was large, then the details' two). */
  private attributes(): BrokerAttributes {
    if (this.attributesOfVersion) return this.attributesOfVersion;
    const n = this.rankToId.length;
    const large = n >= this.collectAfterLoad.minBrokers;
    const attributes = new BrokerAttributes(this.db, this.rankOfId, n, large ? this.collectAfterLoad.collectYoung : undefined);
    if (large) this.collectAfterLoad.collect();
    attributes.loadDetails(this.db, this.rankOfId, large ? this.collectAfterLoad.collectYoung : undefined);
    this.attributesOfVersion = attributes;
    return attributes;
  }

  private globalOrder(sort: "rating" | "reviews"): GlobalOrder {
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

  /**
   * Brings the index to `version`. When the journal shows that only ratings changed since the
   * last version (reviews written), those brokers' ratings are read and updated in place, and
   * only what depends on ratings is recomputed; anything else rebuilds from the database.
   * Either way the answer after a write reflects it: nothing answers from the old version.
   */
  private refresh(version: number): void {
    if (version === this.version) return;
    if (this.version >= 0 && version > this.version) {
      const since = this.changes.since(this.appliedChange);
      if (!("rebuild" in since)) {
        this.applyRatings(since.ratingsOf);
        this.appliedChange = since.last;
        this.version = version;
        return;
      }
    }
    this.rebuild(version);
  }

  private rebuild(version: number): void {
    this.rebuilds++;
    this.rebuiltAt = performance.now();
    // Read before the rows: a change committed meanwhile is applied again next time (harmless).
    this.appliedChange = this.changes.latest();
    const ids = this.publishedInOrder.values().map((row) => row[0] as number);
    this.rankToId = Int32Array.from(ids);
    let maxId = 0;
    for (const id of ids) if (id > maxId) maxId = id;
    this.rankOfId = new Int32Array(maxId + 1).fill(-1);
    for (let rank = 0; rank < ids.length; rank++) this.rankOfId[ids[rank]!] = rank;
    this.allRanks = Int32Array.from({ length: ids.length }, (_, rank) => rank);
    if (this.scratch.matches.length !== ids.length) {
      this.scratch = { matches: new Int32Array(ids.length), facet: new Int32Array(ids.length), keys: new Float64Array(ids.length) };
    }
    this.attributesOfVersion = undefined;
    this.rendered?.close();
    this.rendered = undefined;
    this.renderTried = undefined;
    this.orders.clear();
    this.sets.clear();
    this.version = version;
  }

  /** New averages and counts for these brokers; the rating and reviews orders re-place them. */
  private applyRatings(brokerIds: readonly number[]): void {
    const attributes = this.attributesOfVersion;
    if (!attributes) return;
    const changed: number[] = [];
    const rows = this.ratingsOf.values({ ids: JSON.stringify(brokerIds) }) as [number, number | null, number, number, number, number, number, number][];
    for (const [id, averageRating, reviewCount, ...stars] of rows) {
      const rank = this.rankOf(id);
      if (rank < 0) continue;
      attributes.setRatings(rank, averageRating, reviewCount, stars);
      this.rendered?.ratingsChanged(rank, this.detailText);
      changed.push(rank);
    }
    for (const [sort, order] of this.orders) this.orders.set(sort, reorder(order, attributes, sort, changed));
  }

  /** The rank of a broker id, or -1 when it is not published. */
  private rankOf(id: number): number {
    return id >= 0 && id < this.rankOfId.length ? this.rankOfId[id]! : -1;
  }

  /**
   * The brokers matching a text query. Relevance needs each match's bm25 score; any other order
   * only the ids, which SQLite finds with less work. A scored set cached earlier serves both.
   */
  private textSet(fts: string, scored: boolean): RankSet {
    // Any order but relevance looks for the ids alone first: most searches sort by name, and
    // probing for a scored set before every one of them cost a map lookup a search (issue 30).
    const ids = scored ? undefined : this.sets.get(`q|${fts}`);
    if (ids) return ids;
    const withScores = this.sets.get(`qs|${fts}`);
    if (withScores) return withScores;
    if (scored) return this.set(`qs|${fts}`, () => fullTextScores(this.db, fts));
    return this.set(`q|${fts}`, () => fullTextIds(this.db, fts));
  }

  /** The sorted ranks of the published brokers among `rows` ([id, score?]), computed once per version. */
  private set(key: string, load: () => readonly (readonly unknown[])[]): RankSet {
    const cached = this.sets.get(key);
    if (cached) return cached;
    const rows = load();
    const ranks = new Int32Array(rows.length);
    let n = 0;
    let scored = false;
    // Scores wait by rank in a scratch array while the ranks are sorted.
    const scoreOf = rows.length > 0 && rows[0]!.length > 1 ? this.scratchScores() : undefined;
    for (const row of rows) {
      const rank = this.rankOf(row[0] as number);
      if (rank < 0) continue;
      ranks[n++] = rank;
      if (scoreOf) {
        const score = (row[1] as number | null) ?? 0;
        scoreOf[rank] = score;
        if (score !== 0) scored = true;
      }
    }
    const sorted = ranks.subarray(0, n).sort();
    let values: Float64Array | undefined;
    if (scoreOf) {
      if (scored) values = Float64Array.from(sorted, (rank) => scoreOf[rank]!);
      for (const rank of sorted) scoreOf[rank] = 0;
    }
    return this.keep(key, values ? { ranks: sorted.slice(), values } : { ranks: sorted.slice() });
  }

  private scores: Float64Array | undefined;
  private scratchScores(): Float64Array {
    if (!this.scores || this.scores.length !== this.rankToId.length) this.scores = new Float64Array(this.rankToId.length);
    return this.scores;
  }

  /**
   * Keeps a set (the bounded cache evicts the least recently used past its caps); a large one
   * (a province, a language) with its membership map, so intersections test rather than search.
   */
  private keep(key: string, set: RankSet): RankSet {
    const kept = withMembership(set, this.rankToId.length);
    this.sets.set(key, kept);
    return kept;
  }
}
