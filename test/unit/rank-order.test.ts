import { describe, expect, test } from "bun:test";
import type { BrokerAttributes } from "../../src/storage/search/brokerAttributes.ts";
import { EARTH_RADIUS_KM } from "../../src/domain/geo/distance.ts";
import { globalOrder, orderRanks, reorder } from "../../src/storage/search/rankOrder.ts";
import type { RankSet } from "../../src/storage/search/rankSets.ts";
import { smallestSorted } from "../../src/storage/search/smallestSorted.ts";
import { seededRandom } from "../support/seededRandom.ts";

describe("smallestSorted: the first keys of a full sort, without sorting them all", () => {
  test("equals a full sort's prefix for every count, on distinct keys", () => {
    const next = seededRandom(7);
    for (const size of [0, 1, 2, 5, 100, 1_000]) {
      const keys = Float64Array.from({ length: size }, (_, i) => Math.floor(next() * 1e6) * 4096 + i);
      const sorted = keys.slice().sort();
      for (const count of [0, 1, 3, 20, 60, 249, 250, 251, 999, 1_000, 5_000]) {
        expect(Array.from(smallestSorted(keys.slice(), count))).toEqual(Array.from(sorted.subarray(0, Math.min(count, size))));
      }
    }
  });
});

describe("reorder: ratings changed in place give the order a full sort would", () => {
  test("after random rating changes, for both orders", () => {
    const next = seededRandom(11);
    const n = 500;
    const attributes = {
      averageRating: Float64Array.from({ length: n }, () => Math.round(next() * 8) / 2),
      reviewCount: Int32Array.from({ length: n }, () => Math.floor(next() * 5)),
    } as unknown as BrokerAttributes;
    for (const sort of ["rating", "reviews"] as const) {
      let order = globalOrder(attributes, sort);
      for (let round = 0; round < 20; round++) {
        const changed = Array.from({ length: 1 + Math.floor(next() * 6) }, () => Math.floor(next() * n));
        for (const rank of changed) {
          attributes.averageRating[rank] = Math.round(next() * 8) / 2;
          attributes.reviewCount[rank] = Math.floor(next() * 5);
        }
        order = reorder(order, attributes, sort, changed);
        const fresh = globalOrder(attributes, sort);
        expect(Array.from(order.order)).toEqual(Array.from(fresh.order));
        expect(Array.from(order.positionOf)).toEqual(Array.from(fresh.positionOf));
      }
    }
  });
});

describe("orderRanks by distance and relevance: the prefix a full sort of every (measure, rank) key gives", () => {
  const RANK_BITS = 2 ** 21;
  const CHORD_MM = EARTH_RADIUS_KM * 1e6;
  const fullSort = (matches: Int32Array, set: RankSet, measure: (value: number) => number, end: number) => {
    const valueOf = new Map(Array.from(set.ranks, (rank, i) => [rank, set.values![i]!]));
    const keys = Float64Array.from(matches, (rank) => measure(valueOf.get(rank) ?? 0) * RANK_BITS + rank).sort();
    return Array.from(keys.subarray(0, end), (key) => key % RANK_BITS);
  };
  const context = (near: RankSet) => ({ near, text: near, globalOrder: () => { throw new Error("not a global order"); }, scratch: new Float64Array(5_000) });

  test("with ties and values a hair apart, the matches the set itself or a subset, every page end", () => {
    const next = seededRandom(23);
    for (const size of [2, 3, 40, 1_000, 4_000]) {
      const ranks = Int32Array.from(new Set(Array.from({ length: size }, () => Math.floor(next() * 100_000)))).sort();
      // Few distinct distances (many ties), some a fraction of a millimetre apart (the same measure).
      const chord = (km: number) => (km / EARTH_RADIUS_KM) ** 2;
      const distances = Float64Array.from(ranks, () => chord(Math.floor(next() * 30) + (next() < 0.3 ? next() * 1e-7 : 0)));
      const scores = Float64Array.from(ranks, () => -Math.floor(next() * 20) / 4 - (next() < 0.3 ? next() * 1e-6 : 0));
      const subset = ranks.filter(() => next() < 0.6);
      for (const matches of [ranks, subset]) {
        for (const end of [1, 20, 21, 60, size]) {
          const near = { ranks, values: distances };
          expect(Array.from(orderRanks(matches, "distance", end, context(near)))).toEqual(
            fullSort(matches, near, (v) => Math.round(Math.sqrt(v) * CHORD_MM), end),
          );
          const text = { ranks, values: scores };
          expect(Array.from(orderRanks(matches, "relevance", end, context(text)))).toEqual(
            fullSort(matches, text, (v) => Math.round((Math.max(-1000, v) + 1000) * 1e5), end),
          );
        }
      }
    }
  });

  test("the set's values are left as they were (the page's distances are read from them afterwards)", () => {
    const ranks = Int32Array.from([3, 5, 8, 13, 21]);
    const values = Float64Array.from([5e-6, 1e-6, 4e-6, 2e-6, 3e-6]);
    expect(Array.from(orderRanks(ranks, "distance", 2, context({ ranks, values })))).toEqual([5, 13]);
    expect(Array.from(values)).toEqual([5e-6, 1e-6, 4e-6, 2e-6, 3e-6]);
  });
});
