import { PROVINCE_CODES } from "../../domain/provinces.ts";
import type { BrokerFacet, FacetCounts } from "../../schemas/discovery.ts";
import type { BrokerAttributes } from "./brokerAttributes.ts";
import { cityOfPlace, provinceOfPlace } from "./officePlaces.ts";
import { spreadCombos, withComboCounts, type RankCombos } from "./rankCombos.ts";
import { flattenLists, type RankLists } from "./rankLists.ts";

/** Values listed per facet: the most frequent first. */
export const MAX_FACET_VALUES = 50;

/** Office-level constraints that stay in force while counting a location facet (province with city, city with province). */
export interface OfficeConstraint {
  provinceIndex?: number;
  cityId?: number;
}

/**
 * Counts, among `matches`, the brokers per value of one facet: each broker once per value
 * even with two offices in one city. A location facet counts only offices that meet the other
 * location filter, so its counts equal what that filter value would return. Each match adds one
 * to its combination of values (see rankCombos); the combinations' counts are then spread.
 * `perCombo`: the matches' combinations already counted (facetCombos(facet)), when several
 * facets count the same matches (withComboCounts walks them once for all).
 */
export function countFacet(
  attributes: BrokerAttributes,
  matches: Int32Array,
  facet: BrokerFacet,
  office: OfficeConstraint,
  perCombo?: Int32Array,
): FacetCounts[BrokerFacet] {
  if (perCombo === undefined) {
    const kind = facetCombos(attributes, facet);
    return withComboCounts([kind], matches, (countsOf) => countFacet(attributes, matches, facet, office, countsOf(kind)));
  }
  if (facet === "province" || facet === "city") {
    return top(spreadPlaces(attributes, perCombo, facet, office), facet === "province" ? PROVINCE_CODES : attributes.cities.names);
  }
  const names = facet === "insuranceType" ? attributes.lines.names : attributes.languages.names;
  return top(spreadCombos(facetCombos(attributes, facet).lists, perCombo, names.length), names);
}

/** The combinations a facet's values are counted by: offices' places for province and city. */
export function facetCombos(attributes: BrokerAttributes, facet: BrokerFacet): RankCombos {
  if (facet === "province" || facet === "city") return attributes.officeCombos;
  return facet === "insuranceType" ? attributes.lineCombos : attributes.languageCombos;
}

/**
 * Brokers per province or city from brokers per combination of office places: each
 * combination's count goes once to each value among its offices that meet `office`, so a
 * broker's two offices in one city count once. Without an office constraint (the common case)
 * each combination's distinct values are worked out once per set of combinations.
 */
function spreadPlaces(attributes: BrokerAttributes, perCombo: Int32Array, facet: "province" | "city", office: OfficeConstraint): Int32Array {
  const size = facet === "province" ? PROVINCE_CODES.length : attributes.cities.names.length;
  if (office.provinceIndex === undefined && office.cityId === undefined) {
    return spreadCombos(distinctPlaces(attributes.officeCombos)[facet], perCombo, size);
  }
  const { start, values: places } = attributes.officeCombos.lists;
  const counts = new Int32Array(size);
  const lastCombo = new Int32Array(size).fill(-1);
  for (let combo = 0; combo < perCombo.length; combo++) {
    const count = perCombo[combo]!;
    if (count === 0) continue;
    for (let k = start[combo]!; k < start[combo + 1]!; k++) {
      const province = provinceOfPlace(places[k]!);
      const city = cityOfPlace(places[k]!);
      if (office.provinceIndex !== undefined && province !== office.provinceIndex) continue;
      if (office.cityId !== undefined && city !== office.cityId) continue;
      const value = facet === "province" ? province : city;
      if (lastCombo[value] === combo) continue;
      lastCombo[value] = combo;
      counts[value]! += count;
    }
  }
  return counts;
}

const distinctPlaceLists = new WeakMap<RankCombos, Record<"province" | "city", RankLists>>();

/** Each office combination's distinct provinces and distinct cities (a combination is a broker's offices' places). */
function distinctPlaces(combos: RankCombos): Record<"province" | "city", RankLists> {
  let lists = distinctPlaceLists.get(combos);
  if (!lists) {
    const { start, values } = combos.lists;
    const of = (valueOf: (place: number) => number) =>
      flattenLists(Array.from({ length: start.length - 1 }, (_, combo) => [...new Set(Array.from(values.subarray(start[combo]!, start[combo + 1]!), valueOf))]));
    distinctPlaceLists.set(combos, (lists = { province: of(provinceOfPlace), city: of(cityOfPlace) }));
  }
  return lists;
}

/** Counts and name orders fit in 21 bits each, so one exact double carries (count descending, name). */
const BITS = 2 ** 21;

function top(counts: Int32Array, names: readonly string[]): { value: string; count: number }[] {
  const order = nameOrder(names);
  if (!order || counts.length >= BITS) return topByComparator(counts, names);
  // Most frequent first, ties by name: one numeric key per counted value, sorted natively
  // (a comparator sort of objects cost more than counting the facet).
  let n = 0;
  for (let id = 0; id < counts.length; id++) if (counts[id]! > 0) n++;
  const keys = new Float64Array(n);
  n = 0;
  for (let id = 0; id < counts.length; id++) {
    const count = counts[id]!;
    if (count > 0) keys[n++] = (BITS - 1 - Math.min(count, BITS - 1)) * BITS + order.positionOf[id]!;
  }
  keys.sort();
  const entries: { value: string; count: number }[] = [];
  for (let i = 0; i < Math.min(n, MAX_FACET_VALUES); i++) {
    const id = order.idAt[keys[i]! % BITS]!;
    entries.push({ value: names[id]!, count: counts[id]! });
  }
  return entries;
}

/** The order `top` has always used: count descending, then name (with distinct names, a total order). */
function topByComparator(counts: Int32Array, names: readonly string[]): { value: string; count: number }[] {
  const entries: { value: string; count: number }[] = [];
  counts.forEach((count, id) => {
    if (count > 0) entries.push({ value: names[id]!, count });
  });
  return entries.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, MAX_FACET_VALUES);
}

interface NameOrder {
  length: number;
  /** Each id's place when the names are sorted, and the id at each place. */
  positionOf: Int32Array;
  idAt: Int32Array;
}
const nameOrders = new WeakMap<readonly string[], NameOrder | null>();

/**
 * The alphabetical place of each name (as `<` compares them), computed once per list of names
 * (a vocabulary is complete once loaded; a list that grew is ordered again). Null when two names
 * are equal, where only the comparator's own tie-break would do.
 */
function nameOrder(names: readonly string[]): NameOrder | null {
  const known = nameOrders.get(names);
  if (known !== undefined && (known === null || known.length === names.length)) return known;
  const idAt = Int32Array.from(names, (_, id) => id).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  let order: NameOrder | null = { length: names.length, positionOf: new Int32Array(names.length), idAt };
  for (let place = 0; place < idAt.length; place++) {
    if (place > 0 && names[idAt[place]!] === names[idAt[place - 1]!]) order = null;
    if (order) order.positionOf[idAt[place]!] = place;
  }
  if (order === null || names.length >= BITS) order = null;
  nameOrders.set(names, order);
  return order;
}
