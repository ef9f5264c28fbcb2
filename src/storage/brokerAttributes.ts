import { eq, sql } from "drizzle-orm";
import { brokerLocations, brokers } from "../../db/schema.ts";
import { PROVINCE_CODES } from "../domain/provinces.ts";
import { foldText } from "../domain/text.ts";
import type { DirectoryDb } from "./database.ts";

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

/** A list per rank, stored flat: the values of rank r are values[start[r] … start[r + 1]). */
export interface RankLists {
  start: Int32Array;
  values: Int32Array;
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
  /** Office slots by grid cell (see cellOf): a near search reads only the cells its box overlaps. */
  readonly officeCells = new Map<number, Int32Array>();
  readonly cities = new Vocabulary();
  readonly lines = new Vocabulary();
  readonly languages = new Vocabulary();
  readonly specialties = new Vocabulary();
  readonly linesOf: RankLists;
  readonly languagesOf: RankLists;
  readonly specialtiesOf: RankLists;

  constructor(db: DirectoryDb, idToRank: ReadonlyMap<number, number>) {
    const n = idToRank.size;
    this.averageRating = new Float64Array(n);
    this.reviewCount = new Int32Array(n);
    this.verified = new Uint8Array(n);
    const lineLists: number[][] = Array.from({ length: n }, () => []);
    const languageLists: number[][] = Array.from({ length: n }, () => []);
    const specialtyLists: number[][] = Array.from({ length: n }, () => []);
    const rows = db
      .select({
        id: brokers.id,
        averageRating: brokers.averageRating,
        reviewCount: brokers.reviewCount,
        isVerified: brokers.isVerified,
        insuranceLines: brokers.insuranceLines,
        languages: brokers.languages,
        specialties: brokers.specialties,
      })
      .from(brokers)
      .where(eq(brokers.published, true))
      .all();
    for (const row of rows) {
      const rank = idToRank.get(row.id);
      if (rank === undefined) continue;
      this.averageRating[rank] = row.averageRating ?? 0;
      this.reviewCount[rank] = row.reviewCount;
      this.verified[rank] = row.isVerified ? 1 : 0;
      lineLists[rank] = row.insuranceLines.map((line) => this.lines.idOfName(line));
      languageLists[rank] = row.languages.map((language) => this.languages.idOfName(language));
      specialtyLists[rank] = row.specialties.map((specialty) => this.specialties.idOfName(specialty));
    }
    this.linesOf = flatten(lineLists);
    this.languagesOf = flatten(languageLists);
    this.specialtiesOf = flatten(specialtyLists);

    const officeRows = db
      .select({ brokerId: brokerLocations.brokerId, province: brokerLocations.province, cityKey: brokerLocations.cityKey, city: brokerLocations.city, lat: brokerLocations.latitude, lng: brokerLocations.longitude })
      .from(brokerLocations)
      .where(sql`${brokerLocations.brokerId} IN (SELECT ${brokers.id} FROM ${brokers} WHERE ${brokers.published} = 1)`)
      .all();
    const perRank: number[][] = Array.from({ length: n }, () => []);
    officeRows.forEach((office, i) => {
      const rank = idToRank.get(office.brokerId);
      if (rank !== undefined) perRank[rank]!.push(i);
    });
    this.officeStart = new Int32Array(n + 1);
    perRank.forEach((list, rank) => (this.officeStart[rank + 1] = this.officeStart[rank]! + list.length));
    const total = this.officeStart[n]!;
    this.officeLat = new Float64Array(total);
    this.officeLng = new Float64Array(total);
    this.officeProvince = new Uint8Array(total);
    this.officeCity = new Int32Array(total);
    this.officeRank = new Int32Array(total);
    const cells = new Map<number, number[]>();
    let slot = 0;
    for (const [rank, list] of perRank.entries()) {
      for (const i of list) {
        const office = officeRows[i]!;
        // An office without coordinates can never be "near": NaN fails every distance test.
        this.officeLat[slot] = office.lat ?? Number.NaN;
        this.officeLng[slot] = office.lng ?? Number.NaN;
        this.officeProvince[slot] = Math.max(0, PROVINCE_CODES.indexOf(office.province as (typeof PROVINCE_CODES)[number]));
        this.officeCity[slot] = this.cities.idOf(office.cityKey, office.city);
        this.officeRank[slot] = rank;
        if (office.lat !== null && office.lng !== null) {
          const cell = cellOf(office.lat, office.lng);
          const members = cells.get(cell);
          if (members) members.push(slot);
          else cells.set(cell, [slot]);
        }
        slot++;
      }
    }
    for (const [cell, members] of cells) this.officeCells.set(cell, Int32Array.from(members));
  }

  private distances: Float64Array | undefined;
  /** One distance per rank, all +Infinity: nearSet's scratch space (it resets what it writes). */
  scratchDistances(): Float64Array {
    this.distances ??= new Float64Array(this.averageRating.length).fill(Number.POSITIVE_INFINITY);
    return this.distances;
  }

  /** Office slots in every grid cell that overlaps the box. */
  *officesIn(box: { minLat: number; maxLat: number; minLng: number; maxLng: number }): Generator<Int32Array> {
    const [fromLat, toLat] = [cellIndex(box.minLat, 90), cellIndex(box.maxLat, 90)];
    const [fromLng, toLng] = [cellIndex(Math.max(-180, box.minLng), 180), cellIndex(Math.min(180, box.maxLng), 180)];
    for (let lat = fromLat; lat <= toLat; lat++) {
      for (let lng = fromLng; lng <= toLng; lng++) {
        const members = this.officeCells.get(lat * CELLS_PER_TURN + lng);
        if (members) yield members;
      }
    }
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
    const arrays = [this.averageRating, this.reviewCount, this.verified, this.officeLat, this.officeLng, this.officeProvince, this.officeCity,
      this.officeStart, this.linesOf.start, this.linesOf.values, this.languagesOf.start, this.languagesOf.values,
      this.specialtiesOf.start, this.specialtiesOf.values];
    return arrays.reduce((sum, a) => sum + a.byteLength, 0);
  }
}

/** Grid cells of a quarter degree: a 25 km search reads about four of them. */
const CELL_DEGREES = 0.25;
const CELLS_PER_TURN = 360 / CELL_DEGREES + 1;
const cellIndex = (degrees: number, offset: number) => Math.floor((degrees + offset) / CELL_DEGREES);
const cellOf = (lat: number, lng: number) => cellIndex(lat, 90) * CELLS_PER_TURN + cellIndex(lng, 180);

function flatten(lists: readonly (readonly number[])[]): RankLists {
  const start = new Int32Array(lists.length + 1);
  let total = 0;
  lists.forEach((list, i) => {
    start[i] = total;
    total += list.length;
  });
  start[lists.length] = total;
  const values = new Int32Array(total);
  lists.forEach((list, i) => values.set(list, start[i]!));
  return { start, values };
}
