import { describe, expect, test } from "bun:test";
import type { BrokerAttributes } from "../../src/storage/brokerAttributes.ts";
import { globalOrder, reorder } from "../../src/storage/rankOrder.ts";
import { smallestSorted } from "../../src/storage/smallestSorted.ts";
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
