import { expect, test } from "bun:test";
import { PROVINCE_CODES } from "../../src/domain/provinces.ts";
import type { BrokerAttributes } from "../../src/storage/brokerAttributes.ts";
import { countFacet, countProvincesAndCities } from "../../src/storage/facetCounts.ts";
import { seededRandom } from "../support/seededRandom.ts";

test("province and city counted in one pass equal each counted alone (several offices, some in one city)", () => {
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
  const attributes = {
    officeStart,
    officeProvince: Uint8Array.from(provinces),
    officeCity: Int32Array.from(cities),
    cities: { names: cityNames },
  } as unknown as BrokerAttributes;
  for (const share of [0, 0.01, 0.3, 1]) {
    const matches = Int32Array.from(Array.from({ length: n }, (_, rank) => rank).filter(() => next() < share));
    const both = countProvincesAndCities(attributes, matches);
    expect(both.province).toEqual(countFacet(attributes, matches, "province", {})!);
    expect(both.city).toEqual(countFacet(attributes, matches, "city", {})!);
    if (share === 1) expect(both.city!.length).toBe(50);
  }
});

test("facet values come most frequent first, ties by name, at most 50, as a comparator sort gives them", () => {
  const next = seededRandom(9);
  const names = Array.from({ length: 120 }, (_, i) => `${String.fromCharCode(65 + Math.floor(next() * 26))}ine ${i % 7} ${i}`);
  const n = 3_000;
  const lists = Array.from({ length: n }, () => Array.from({ length: Math.floor(next() * 4) }, () => Math.floor(next() ** 3 * names.length)));
  const start = new Int32Array(n + 1);
  lists.forEach((list, rank) => (start[rank + 1] = start[rank]! + list.length));
  const attributes = { linesOf: { start, values: Int32Array.from(lists.flat()) }, lines: { names } } as unknown as BrokerAttributes;
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
