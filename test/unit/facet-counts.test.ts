import { expect, test } from "bun:test";
import { PROVINCE_CODES } from "../../src/domain/provinces.ts";
import type { BrokerAttributes } from "../../src/storage/search/brokerAttributes.ts";
import { countFacet, facetCombos } from "../../src/storage/search/facetCounts.ts";
import { officePlaces } from "../../src/storage/search/officePlaces.ts";
import { combosOf, withComboCounts, type RankCombos } from "../../src/storage/search/rankCombos.ts";
import { seededRandom } from "../support/seededRandom.ts";

/** Matches per combination, counted one match at a time into a fresh array: the reference. */
function countCombos(kind: RankCombos, matches: Int32Array): Int32Array {
  const counts = new Int32Array(kind.lists.start.length - 1);
  for (const rank of matches) counts[kind.comboOf[rank]!]! += 1;
  return counts;
}

test("facets counted in one walk over the matches equal each counted alone (several offices, some in one city)", () => {
  const next = seededRandom(3);
  const n = 2_000;
  const cityNames = Array.from({ length: 90 }, (_, i) => `City ${i}`);
  const officeStart = new Int32Array(n + 1);
  const provinces: number[] = [];
  const cities: number[] = [];
  for (let rank = 0; rank < n; rank++) {
    const offices = Math.floor(next() * 4);
    for (let k = 0; k < offices; k++) {
      // Often a second office in the same city or province, which must count the broker once.
      const city = k > 0 && next() < 0.5 ? cities[cities.length - 1]! : Math.floor(next() * cityNames.length);
      cities.push(city);
      provinces.push(city % PROVINCE_CODES.length);
    }
    officeStart[rank + 1] = cities.length;
  }
  const randomLists = (values: number) => {
    const lists = Array.from({ length: n }, () => Array.from({ length: Math.floor(next() * 3) }, () => Math.floor(next() * values)));
    const start = new Int32Array(n + 1);
    lists.forEach((list, rank) => (start[rank + 1] = start[rank]! + list.length));
    return combosOf({ start, values: Int32Array.from(lists.flat()) });
  };
  const attributes = {
    officeCombos: combosOf(officePlaces(officeStart, Uint8Array.from(provinces), Int32Array.from(cities))),
    lineCombos: randomLists(12),
    languageCombos: randomLists(5),
    cities: { names: cityNames },
    lines: { names: Array.from({ length: 12 }, (_, i) => `Line ${i}`) },
    languages: { names: Array.from({ length: 5 }, (_, i) => `Language ${i}`) },
  } as unknown as BrokerAttributes;
  const facets = ["province", "city", "insuranceType", "language"] as const;
  for (const share of [0, 0.01, 0.3, 1]) {
    const matches = Int32Array.from(Array.from({ length: n }, (_, rank) => rank).filter(() => next() < share));
    for (const asked of [facets.slice(0, 2), facets.slice(1, 3), facets.slice(2), facets.slice()]) {
      const kinds = [...new Set(asked.map((facet) => facetCombos(attributes, facet)))];
      withComboCounts(kinds, matches, (countsOf) => {
        for (const facet of asked) {
          const kind = facetCombos(attributes, facet);
          expect(Array.from(countsOf(kind))).toEqual(Array.from(countCombos(kind, matches)));
          // A count nested inside (the same kind, other matches) gets space of its own and leaves these alone.
          const before = Array.from(countsOf(kind));
          expect(countFacet(attributes, matches.subarray(0, 7), facet, {})).toEqual(countFacet(attributes, matches.subarray(0, 7), facet, {}, countCombos(kind, matches.subarray(0, 7))));
          expect(Array.from(countsOf(kind))).toEqual(before);
          expect(countFacet(attributes, matches, facet, {}, countsOf(kind))).toEqual(countFacet(attributes, matches, facet, {}));
        }
      });
      // The space is zeroed after use: the next count starts from nothing.
      withComboCounts(kinds, matches.subarray(0, 0), (countsOf) => kinds.forEach((kind) => expect(countsOf(kind).every((count) => count === 0)).toBe(true)));
    }
    if (share === 1) expect(countFacet(attributes, matches, "city", {})?.length).toBe(50);
  }
});

test("facet values come most frequent first, ties by name, at most 50, as a comparator sort gives them", () => {
  const next = seededRandom(9);
  const names = Array.from({ length: 120 }, (_, i) => `${String.fromCharCode(65 + Math.floor(next() * 26))}ine ${i % 7} ${i}`);
  const n = 3_000;
  const lists = Array.from({ length: n }, () => Array.from({ length: Math.floor(next() * 4) }, () => Math.floor(next() ** 3 * names.length)));
  const start = new Int32Array(n + 1);
  lists.forEach((list, rank) => (start[rank + 1] = start[rank]! + list.length));
  const attributes = { lineCombos: combosOf({ start, values: Int32Array.from(lists.flat()) }), lines: { names } } as unknown as BrokerAttributes;
  for (const size of [0, 10, 200, n]) {
    const matches = Int32Array.from({ length: size }, (_, i) => i);
    const counts = new Map<number, number>();
    for (let rank = 0; rank < size; rank++) for (const id of lists[rank]!) counts.set(id, (counts.get(id) ?? 0) + 1);
    const expected = [...counts]
      .map(([id, count]) => ({ value: names[id]!, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
      .slice(0, 50);
    expect(countFacet(attributes, matches, "insuranceType", {})).toEqual(expected);
  }
});

test("counting by combination gives each broker once per place, as a walk over every office does", () => {
  const next = seededRandom(11);
  const n = 1_500;
  const cityNames = Array.from({ length: 40 }, (_, i) => `Town ${i}`);
  const places: [number, number][][] = Array.from({ length: n }, () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
      const city = Math.floor(next() * 6) * (next() < 0.2 ? 7 : 1);
      return [city % PROVINCE_CODES.length, city] as [number, number];
    }),
  );
  const officeStart = new Int32Array(n + 1);
  places.forEach((list, rank) => (officeStart[rank + 1] = officeStart[rank]! + list.length));
  const officeCombos = combosOf(officePlaces(officeStart, Uint8Array.from(places.flat().map(([p]) => p)), Int32Array.from(places.flat().map(([, c]) => c))));
  const attributes = { officeCombos, cities: { names: cityNames } } as unknown as BrokerAttributes;
  const matches = Int32Array.from(Array.from({ length: n }, (_, rank) => rank).filter(() => next() < 0.6));
  const expected = (value: (place: [number, number]) => number, keep: (place: [number, number]) => boolean) => {
    const counts = new Map<number, number>();
    for (const rank of matches) for (const v of new Set(places[rank]!.filter(keep).map(value))) counts.set(v, (counts.get(v) ?? 0) + 1);
    return counts;
  };
  const asMap = (entries: { value: string; count: number }[] | undefined, names: readonly string[]) => new Map(entries!.map((e) => [names.indexOf(e.value), e.count]));
  expect(asMap(countFacet(attributes, matches, "province", {}), PROVINCE_CODES)).toEqual(expected(([p]) => p, () => true));
  expect(asMap(countFacet(attributes, matches, "city", {}), cityNames)).toEqual(expected(([, c]) => c, () => true));
  // city=7 keeps provinces of offices in that city only; province 2 keeps cities of its offices only.
  expect(asMap(countFacet(attributes, matches, "province", { cityId: 7 }), PROVINCE_CODES)).toEqual(expected(([p]) => p, ([, c]) => c === 7));
  expect(asMap(countFacet(attributes, matches, "city", { provinceIndex: 2 }), cityNames)).toEqual(expected(([, c]) => c, ([p]) => p === 2));
});
