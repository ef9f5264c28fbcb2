import { boundingBox, distanceKm, type LatLng } from "../domain/geo/distance.ts";
import type { BrokerAttributes } from "./brokerAttributes.ts";

/**
 * Ranks (alphabetical positions) of published brokers, ascending, with an optional number per
 * rank: the distance of a near set, the bm25 score of a text set. Every filter is one of these;
 * a search intersects them.
 */
export interface RankSet {
  ranks: Int32Array;
  values?: Float64Array;
}

/** Every broker with an office within `radiusKm` of `centre`, with the distance to its nearest such office. */
export function nearSet(attributes: BrokerAttributes, centre: LatLng, radiusKm: number): RankSet {
  const box = boundingBox(centre, radiusKm);
  const ranks: number[] = [];
  const distances: number[] = [];
  const { officeStart, officeLat, officeLng } = attributes;
  for (let rank = 0; rank + 1 < officeStart.length; rank++) {
    let best = Number.POSITIVE_INFINITY;
    for (let slot = officeStart[rank]!; slot < officeStart[rank + 1]!; slot++) {
      const lat = officeLat[slot]!;
      const lng = officeLng[slot]!;
      // NaN (no coordinates) fails these comparisons too.
      if (!(lat >= box.minLat && lat <= box.maxLat && lng >= box.minLng && lng <= box.maxLng)) continue;
      const km = distanceKm(centre, { lat, lng });
      if (km <= radiusKm && km < best) best = km;
    }
    if (best !== Number.POSITIVE_INFINITY) {
      ranks.push(rank);
      distances.push(best);
    }
  }
  return { ranks: Int32Array.from(ranks), values: Float64Array.from(distances) };
}

/** Brokers whose average rating is at least `min` (brokers without reviews count as 0). */
export function minRatingSet(attributes: BrokerAttributes, min: number): RankSet {
  const ranks: number[] = [];
  attributes.averageRating.forEach((average, rank) => {
    if (average >= min) ranks.push(rank);
  });
  return { ranks: Int32Array.from(ranks) };
}

/** Brokers whose verification mark equals `verified`. */
export function verifiedSet(attributes: BrokerAttributes, verified: boolean): RankSet {
  const ranks: number[] = [];
  attributes.verified.forEach((flag, rank) => {
    if ((flag === 1) === verified) ranks.push(rank);
  });
  return { ranks: Int32Array.from(ranks) };
}

/** The value a set holds for `rank` (binary search), or undefined. */
export function valueAt(set: RankSet, rank: number): number | undefined {
  let lo = 0;
  let hi = set.ranks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = set.ranks[mid]!;
    if (at === rank) return set.values?.[mid];
    if (at < rank) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Intersection of ascending arrays, smallest first; walks the shorter one and gallops through the longer. */
export function intersectAll(sets: readonly Int32Array[]): Int32Array {
  return [...sets].sort((a, b) => a.length - b.length).reduce(intersectSorted);
}

function intersectSorted(small: Int32Array, large: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(small.length, large.length));
  let n = 0;
  let j = 0;
  for (let i = 0; i < small.length && j < large.length; i++) {
    const value = small[i]!;
    if (large[j]! < value) {
      let step = 1;
      while (j + step < large.length && large[j + step]! < value) step *= 2;
      let lo = j + (step >> 1);
      let hi = Math.min(j + step, large.length - 1);
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (large[mid]! < value) lo = mid + 1;
        else hi = mid;
      }
      j = lo;
    }
    if (large[j] === value) out[n++] = value;
  }
  return out.subarray(0, n);
}
