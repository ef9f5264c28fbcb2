import { PROVINCE_CODES } from "../../domain/provinces.ts";
import { foldText } from "../../domain/text.ts";
import { DetailColumns } from "./detailColumns.ts";
import { DistinctValues } from "./distinctValues.ts";
import { fileBackedArrays, indexFilesDirectoryOf } from "./fileBackedBytes.ts";
import { ListColumns } from "./listColumns.ts";
import { utf8Bytes } from "./utf8Bytes.ts";
import { OfficeGrid } from "./officeGrid.ts";
import { officePlaces } from "./officePlaces.ts";
import { combosOf, type RankCombos } from "./rankCombos.ts";
import { flattenLists, type RankLists } from "./rankLists.ts";
import { SlugTable } from "./slugTable.ts";
import { rowTicks } from "./youngCollections.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import type { DetailOffice, DetailRow } from "./detailRow.ts";

/**
 * The lookup facts of a published broker by id (see BrokerStore.findById): the index keeps
 * them for every rank, and stores/brokerLookups.ts reads the same shape from SQLite.
 */
export interface RefRow {
  id: number;
  slug: string;
  name: string;
  reviewCount: number;
  r1: number;
  r2: number;
  r3: number;
  r4: number;
  r5: number;
}

/** Values of one kind (cities, lines, languages…) numbered in first-seen order, with a display name each. */
class Vocabulary {
  readonly names: string[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byName = new Map<string, number>();
  /** The id of a display name, folded once per distinct name (folding is the costly part). */
  idOfName(name: string): number {
    let id = this.byName.get(name);
    if (id === undefined) this.byName.set(name, (id = this.idOf(foldText(name), name)));
    return id;
  }
  idOf(key: string, name: string): number {
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = this.names.length;
      this.byKey.set(key, id);
      this.names.push(name);
    }
    return id;
  }
  find(key: string): number | undefined {
    return this.byKey.get(key);
  }
}

/**
 * What discovery needs of each published broker, by rank (alphabetical position), in typed
 * arrays: ratings, the verification mark, every office (coordinates, province, city) and the
 * broker's lines, languages and specialties as numbered values. Loaded from the database in
 * two queries when a search first needs it after the directory version moved, then read by
 * searches, sorts and facet counts without touching SQL or allocating per broker.
 */
export class BrokerAttributes {
  readonly averageRating: Float64Array;
  readonly reviewCount: Int32Array;
  /** Published reviews per star: rank r's one- to five-star counts are slots 5r … 5r + 4 (what a reviews page's total reads). */
  readonly starCounts: Int32Array;
  readonly verified: Uint8Array;
  /** Offices of rank r are the slots officeStart[r] … officeStart[r + 1]) of the office arrays. */
  readonly officeStart: Int32Array;
  readonly officeLat: Float64Array;
  readonly officeLng: Float64Array;
  /** Index into PROVINCE_CODES. */
  readonly officeProvince: Uint8Array;
  readonly officeCity: Int32Array;
  /** The rank each office slot belongs to. */
  readonly officeRank: Int32Array;
  /** The offices with coordinates in grid order: a near search reads only the cells its box overlaps. */
  readonly grid: OfficeGrid;
  readonly cities = new Vocabulary();
  readonly lines = new Vocabulary();
  readonly languages = new Vocabulary();
  readonly specialties = new Vocabulary();
  readonly linesOf: RankLists;
  readonly languagesOf: RankLists;
  readonly specialtiesOf: RankLists;
  /** The same lists grouped by content, and each rank's offices' places: what facet counts read. */
  readonly lineCombos: RankCombos;
  readonly languageCombos: RankCombos;
  readonly officeCombos: RankCombos;
  /** What a list item shows, so a page needs no query. */
  readonly list: ListColumns;
  /** The rank of each slug, and the rest of a broker's detail (loaded apart: see loadDetails). */
  private readonly slugs: SlugTable;
  private details: DetailColumns | undefined;

  /** `collectYoung`, for a large directory: a young collection every 4,096 rows read (see youngCollections.ts). */
  constructor(db: DirectoryDb, rankOfId: Int32Array, n: number, collectYoung?: () => void) {
    const rankOf = rankLookup(rankOfId);
    const tick = rowTicks(collectYoung);
    this.averageRating = new Float64Array(n);
    this.reviewCount = new Int32Array(n);
    this.starCounts = new Int32Array(5 * n);
    this.verified = new Uint8Array(n);
    // One sequential pass over the table, one row at a time (the published index would cost a
    // lookup per row; all rows at once were 100 MB of garbage alive together at 100,000 brokers,
    // whose pages the process kept). Each row's JSON lists are kept as a number per distinct
    // text (most brokers share a few), then numbered in rank order below, so values are numbered,
    // and named, where alphabetically first seen.
    const listTexts = new DistinctValues((text) => text);
    const listsOfRank = new Int32Array(3 * n).fill(-1);
    this.list = new ListColumns(n, utf8Bytes(db, "brokers WHERE published = 1", ["name", "slug", "description"]));
    const rows = db.$client.query<BrokerColumns, []>(
      "SELECT id, average_rating AS averageRating, review_count AS reviewCount, is_verified AS isVerified, insurance_lines AS lines, " +
        "languages, specialties, name, slug, description, province, city, rating_1 AS r1, rating_2 AS r2, rating_3 AS r3, rating_4 AS r4, rating_5 AS r5 " +
        "FROM brokers NOT INDEXED WHERE published = 1",
    );
    for (const row of rows.iterate()) {
      tick();
      const rank = rankOf(row.id);
      if (rank < 0) continue;
      this.list.set(rank, row.name, row.slug, row.description, row.province, row.city);
      this.setRatings(rank, row.averageRating, row.reviewCount, [row.r1, row.r2, row.r3, row.r4, row.r5]);
      this.verified[rank] = row.isVerified ? 1 : 0;
      listsOfRank[3 * rank] = listTexts.idOf(row.lines);
      listsOfRank[3 * rank + 1] = listTexts.idOf(row.languages);
      listsOfRank[3 * rank + 2] = listTexts.idOf(row.specialties);
    }
    // Each distinct text is parsed and numbered once, in rank order.
    const lineIds = listReader(this.lines);
    const languageIds = listReader(this.languages);
    const specialtyIds = listReader(this.specialties);
    const lineLists: Int32Array[] = new Array(n).fill(EMPTY);
    const languageLists: Int32Array[] = new Array(n).fill(EMPTY);
    const specialtyLists: Int32Array[] = new Array(n).fill(EMPTY);
    for (let rank = 0; rank < n; rank++) {
      if (listsOfRank[3 * rank]! < 0) continue;
      lineLists[rank] = lineIds(listTexts.value(listsOfRank[3 * rank]!));
      languageLists[rank] = languageIds(listTexts.value(listsOfRank[3 * rank + 1]!));
      specialtyLists[rank] = specialtyIds(listTexts.value(listsOfRank[3 * rank + 2]!));
    }
    this.list.seal(indexFilesDirectoryOf(db));
    this.slugs = new SlugTable(n, (rank) => this.list.slug(rank), (rank, slug) => this.list.hasSlug(rank, slug));
    this.linesOf = flattenLists(lineLists);
    this.languagesOf = flattenLists(languageLists);
    this.specialtiesOf = flattenLists(specialtyLists);
    this.lineCombos = combosOf(this.linesOf);
    this.languageCombos = combosOf(this.languagesOf);

    // Every office (those of unpublished brokers have no rank and are skipped). First their
    // brokers alone (numbers), to size each rank's range; then the offices one at a time, in the
    // same table order, each into the next slot of its rank's range.
    const brokerOfRow = db.$client.query("SELECT broker_id FROM broker_locations NOT INDEXED ORDER BY id").values() as [number][];
    this.officeStart = new Int32Array(n + 1);
    for (const [brokerId] of brokerOfRow) {
      const rank = rankOf(brokerId);
      if (rank >= 0) this.officeStart[rank + 1]!++;
    }
    for (let rank = 0; rank < n; rank++) this.officeStart[rank + 1]! += this.officeStart[rank]!;
    const total = this.officeStart[n]!;
    this.officeLat = new Float64Array(total);
    this.officeLng = new Float64Array(total);
    this.officeProvince = new Uint8Array(total);
    this.officeCity = new Int32Array(total);
    this.officeRank = new Int32Array(total);
    const placeOfSlot = new Int32Array(total);
    const places = new DistinctValues((text) => text);
    const provinceIndex = new Map<string, number>(PROVINCE_CODES.map((code, i) => [code, i]));
    const next = this.officeStart.slice(0, n);
    const offices = db.$client.query<OfficeColumns, []>(
      "SELECT broker_id AS brokerId, province, city_key AS cityKey, city, latitude, longitude FROM broker_locations NOT INDEXED ORDER BY id",
    );
    for (const office of offices.iterate()) {
      tick();
      const rank = rankOf(office.brokerId);
      if (rank < 0) continue;
      const slot = next[rank]!++;
      // An office without coordinates can never be "near": NaN fails every distance test.
      this.officeLat[slot] = office.latitude ?? Number.NaN;
      this.officeLng[slot] = office.longitude ?? Number.NaN;
      this.officeProvince[slot] = provinceIndex.get(office.province) ?? 0;
      this.officeRank[slot] = rank;
      placeOfSlot[slot] = places.idOf(`${office.cityKey}\u0000${office.city}`);
    }
    // Slot order (rank by rank), so each city is numbered, and named, where it is first seen.
    const cityOfPlace = new Int32Array(places.size()).fill(-1);
    for (let slot = 0; slot < total; slot++) {
      const place = placeOfSlot[slot]!;
      if (cityOfPlace[place] === -1) {
        const text = places.value(place);
        const cut = text.indexOf("\u0000");
        cityOfPlace[place] = this.cities.idOf(text.slice(0, cut), text.slice(cut + 1));
      }
      this.officeCity[slot] = cityOfPlace[place]!;
    }
    // Like the list text, the arrays of numbers move into a mapped file if they can (see
    // fileBackedArrays); a review write still updates the ratings in place (a private mapping
    // copies the page it writes).
    const inMemory = [this.averageRating, this.officeLat, this.officeLng, this.reviewCount, this.starCounts, this.officeStart, this.officeCity, this.officeRank, this.verified, this.officeProvince] as const;
    [this.averageRating, this.officeLat, this.officeLng, this.reviewCount, this.starCounts, this.officeStart, this.officeCity, this.officeRank, this.verified, this.officeProvince] = fileBackedArrays(inMemory, indexFilesDirectoryOf(db)) ?? inMemory;
    this.officeCombos = combosOf(officePlaces(this.officeStart, this.officeProvince, this.officeCity));
    this.grid = new OfficeGrid(this.officeLat, this.officeLng, this.officeRank);
  }

  /** A broker's ratings as the brokers row has them (its triggers keep them): at load, and for each review written since. */
  setRatings(rank: number, averageRating: number | null, reviewCount: number, stars: readonly number[]): void {
    this.averageRating[rank] = averageRating ?? 0;
    this.reviewCount[rank] = reviewCount;
    this.starCounts.set(stars, 5 * rank);
  }

  /** What a lookup by id needs of the published broker of this rank (see BrokerStore.findById). */
  ref(rank: number, id: number): RefRow {
    const s = this.starCounts;
    const at = 5 * rank;
    const { name, slug } = this.list.nameAndSlug(rank);
    return { id, slug, name, reviewCount: this.reviewCount[rank]!, r1: s[at]!, r2: s[at + 1]!, r3: s[at + 2]!, r4: s[at + 3]!, r5: s[at + 4]! };
  }

  /**
   * Reads what a detail shows beyond the attributes (DetailColumns), with `collectYoung` run as
   * it goes (see DetailColumns.load). Apart from the constructor so it runs once the
   * constructor's rows are garbage and collected.
   */
  loadDetails(db: DirectoryDb, rankOfId: Int32Array, collectYoung?: () => void): void {
    const n = this.averageRating.length;
    this.details = DetailColumns.load(db, rankLookup(rankOfId), n, collectYoung);
  }

  /** The rank of the published broker with exactly this slug, or -1. */
  rankOfSlug(slug: string): number {
    return this.slugs.rankOf(slug);
  }

  /** What BrokerLookups.detail reads of the published broker of this rank, from memory; undefined before loadDetails. */
  detail(rank: number, id: number): { row: DetailRow; locations: DetailOffice[] } | undefined {
    const details = this.details;
    if (!details) return undefined;
    const s = this.starCounts;
    const at = 5 * rank;
    const { province, city, ...text } = this.list.item(rank, id, this.averageRating[rank]!, this.reviewCount[rank]!, this.verified[rank] === 1);
    const base = { ...text, id, province, city, rating1: s[at]!, rating2: s[at + 1]!, rating3: s[at + 2]!, rating4: s[at + 3]!, rating5: s[at + 4]! };
    return { row: details.row(rank, base), locations: details.offices(rank) };
  }

  private near: NearScratch | undefined;
  /** nearSet's scratch space, one slot (or bit) per rank: `best` all +Infinity and `touchedBits` all 0 (it resets what it writes), the others any. */
  nearScratch(): NearScratch {
    const n = this.averageRating.length;
    this.near ??= {
      best: new Float64Array(n).fill(Number.POSITIVE_INFINITY),
      touchedBits: new Int32Array(Math.ceil(n / 32)),
      touched: new Int32Array(n),
      distances: new Float64Array(n),
    };
    return this.near;
  }

  /** Ranks (ascending) whose list holds `valueId`. */
  ranksWith(lists: RankLists, valueId: number | undefined): Int32Array {
    if (valueId === undefined) return new Int32Array(0);
    const out: number[] = [];
    for (let rank = 0; rank + 1 < lists.start.length; rank++) {
      for (let k = lists.start[rank]!; k < lists.start[rank + 1]!; k++) {
        if (lists.values[k] === valueId) {
          out.push(rank);
          break;
        }
      }
    }
    return Int32Array.from(out);
  }

  /** Approximate bytes held (for cache accounting). */
  bytes(): number {
    const arrays = [this.averageRating, this.reviewCount, this.starCounts, this.verified, this.officeLat, this.officeLng, this.officeProvince, this.officeCity,
      this.officeStart, this.linesOf.start, this.linesOf.values, this.languagesOf.start, this.languagesOf.values,
      this.specialtiesOf.start, this.specialtiesOf.values,
      ...[this.lineCombos, this.languageCombos, this.officeCombos].flatMap((combos) => [combos.comboOf, combos.lists.start, combos.lists.values])];
    return arrays.reduce((sum, a) => sum + a.byteLength, this.grid.bytes() + (this.details?.bytes() ?? 0) + this.slugs.bytes());
  }
}

const EMPTY = new Int32Array(0);
/** A published broker's columns as the load reads them. */
interface BrokerColumns {
  id: number;
  averageRating: number | null;
  reviewCount: number;
  isVerified: number;
  lines: string;
  languages: string;
  specialties: string;
  name: string;
  slug: string;
  description: string;
  province: string;
  city: string;
  r1: number;
  r2: number;
  r3: number;
  r4: number;
  r5: number;
}

/** An office's columns as the load reads them. */
interface OfficeColumns {
  brokerId: number;
  province: string;
  cityKey: string;
  city: string;
  latitude: number | null;
  longitude: number | null;
}

/** A broker id's rank in `rankOfId`, -1 for an id not published (or past the array). */
function rankLookup(rankOfId: Int32Array): (id: number) => number {
  return (id) => (id < rankOfId.length ? rankOfId[id]! : -1);
}

interface NearScratch {
  best: Float64Array;
  touchedBits: Int32Array;
  touched: Int32Array;
  distances: Float64Array;
}

/** Numbers the values of a JSON list text (as stored) in a vocabulary; each distinct text is read once. */
function listReader(vocabulary: Vocabulary): (json: string) => Int32Array {
  const seen = new Map<string, Int32Array>();
  return (json) => {
    let ids = seen.get(json);
    if (!ids) seen.set(json, (ids = Int32Array.from(JSON.parse(json) as string[], (name) => vocabulary.idOfName(name))));
    return ids;
  };
}
