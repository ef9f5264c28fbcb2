import { EARTH_RADIUS_KM } from "../../domain/geo/distance.ts";
import type { BrokerSort } from "../../schemas/discovery.ts";
import type { BrokerAttributes } from "./brokerAttributes.ts";
import type { RankSet } from "./rankSets.ts";
import { countthSmallest, smallestSorted } from "./smallestSorted.ts";

/** Ranks fit in 21 bits (two million brokers), so a sort key can carry the rank below a measure. */
const RANK_BITS = 2 ** 21;
/** Millimetres in a unit-sphere chord on the Earth. */
const CHORD_MM = EARTH_RADIUS_KM * 1e6;

/** A per-version order of every rank (rating or reviews) and each rank's position in it. */
export interface GlobalOrder {
  order: Int32Array;
  positionOf: Int32Array;
}

/**
 * The first `end` matching ranks (ascending = alphabetical) in the order `sort` asks (all of
 * them when fewer match). Every order ends on the rank, so ties go alphabetical and a page
 * boundary never repeats or skips a broker. Each order is a numeric key per match that is
 * unique (the rank is part of it): distance and relevance pack (measure, rank) into one float,
 * rating and reviews use the match's position in an order computed once per directory version.
 * Only the smallest `end` keys are picked and sorted (a page needs no more), which is the same
 * prefix a full sort of unique keys gives. The keys are written into `scratch` (one number per
 * rank, owned by the index), so a search allocates only its page.
 */
export function orderRanks(
  matches: Int32Array,
  sort: BrokerSort,
  end: number,
  context: { near?: RankSet; text?: RankSet; globalOrder: (sort: "rating" | "reviews") => GlobalOrder; scratch: Float64Array },
): Int32Array {
  if (sort === "name" || matches.length < 2) return matches.subarray(0, Math.min(end, matches.length));
  const keys = context.scratch.subarray(0, matches.length);
  if (sort === "rating" || sort === "reviews") {
    const { order, positionOf } = context.globalOrder(sort);
    if (matches.length === order.length) return order.subarray(0, Math.min(end, order.length));
    for (let i = 0; i < matches.length; i++) keys[i] = positionOf[matches[i]!]!;
    const first = smallestSorted(keys, end);
    const ordered = new Int32Array(first.length);
    for (let i = 0; i < first.length; i++) ordered[i] = order[first[i]!]!;
    return ordered;
  }
  const measureSet = sort === "distance" ? context.near : context.text;
  if (!measureSet?.values) return matches.subarray(0, Math.min(end, matches.length));
  return byMeasure(matches, measureSet.ranks, measureSet.values, sort === "distance" ? DISTANCE : RELEVANCE, end, keys);
}

/**
 * How a set's value becomes the whole number a sort key carries above the rank, and a value
 * at or above every value whose number is at most `measure` (a margin of one unit).
 */
interface Measure {
  of(value: number): number;
  valueBound(measure: number): number;
}
/** Distance as the chord in millimetres: it grows with the distance; at most 10⁹ for 500 km, within the 32 bits above the rank. */
const DISTANCE: Measure = { of: (chord2) => Math.round(Math.sqrt(chord2) * CHORD_MM), valueBound: (mm) => ((mm + 1) / CHORD_MM) ** 2 };
/** bm25 (negative, lower is better) shifted positive at 1e-5 resolution. */
const RELEVANCE: Measure = { of: (bm25) => Math.round((Math.max(-1000, bm25) + 1000) * 1e5), valueBound: (m) => (m + 1) / 1e5 - 1000 };

/**
 * The first `end` matches by (measure of the set's value, rank). Working out every match's key
 * (a square root and a rounding each) cost as much as finding the near set itself, so the
 * `end`-th smallest raw value is found first (a measure never decreases with the value); only
 * the matches whose value is within that value's measure can be among the first `end`, and
 * only theirs are keyed and sorted. The result is the prefix a full sort of every key gives.
 */
function byMeasure(matches: Int32Array, ranks: Int32Array, setValues: Float64Array, measure: Measure, end: number, keys: Float64Array): Int32Array {
  // The set's value for each match, aligned: the set's own values when the matches are its
  // ranks (as many as its members: matches are a subset), else one walk (both ascending).
  let values = setValues;
  if (matches.length !== ranks.length) {
    values = keys;
    let j = 0;
    for (let i = 0; i < matches.length; i++) {
      const rank = matches[i]!;
      while (j < ranks.length && ranks[j]! < rank) j++;
      values[i] = ranks[j] === rank ? setValues[j]! : 0;
    }
  }
  const bound = measure.valueBound(measure.of(countthSmallest(values.subarray(0, matches.length), end)));
  // Candidates' keys are written into `keys` behind the reads (n <= i), which may be `values`.
  let n = 0;
  for (let i = 0; i < matches.length; i++) {
    const value = values[i]!;
    if (value <= bound) keys[n++] = measure.of(value) * RANK_BITS + matches[i]!;
  }
  const first = smallestSorted(keys.subarray(0, n), end);
  const ordered = new Int32Array(first.length);
  for (let i = 0; i < first.length; i++) ordered[i] = first[i]! % RANK_BITS;
  return ordered;
}

/** Highest average first, then most reviewed, then alphabetical; or most reviewed first, then alphabetical. */
export function globalOrder(attributes: BrokerAttributes, sort: "rating" | "reviews"): GlobalOrder {
  const order = Int32Array.from({ length: attributes.averageRating.length }, (_, rank) => rank).sort(comparator(attributes, sort));
  return { order, positionOf: positionsOf(order) };
}

/**
 * The order after the ratings of `changed` ranks moved: each is taken out and put back where
 * the comparator places it (a binary search), as a full sort of the same values would.
 */
export function reorder(previous: GlobalOrder, attributes: BrokerAttributes, sort: "rating" | "reviews", changed: readonly number[]): GlobalOrder {
  const compare = comparator(attributes, sort);
  const moving = new Uint8Array(previous.order.length);
  for (const rank of changed) moving[rank] = 1;
  const kept = previous.order.filter((rank) => moving[rank] === 0);
  const order = new Int32Array(previous.order.length);
  const placed = [...new Set(changed)].sort(compare);
  // Merge the kept ranks (still in order among themselves) with the moved ones, sorted alike.
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < kept.length || j < placed.length) {
    if (j >= placed.length || (i < kept.length && compare(kept[i]!, placed[j]!) < 0)) order[n++] = kept[i++]!;
    else order[n++] = placed[j++]!;
  }
  return { order, positionOf: positionsOf(order) };
}

function comparator(attributes: BrokerAttributes, sort: "rating" | "reviews"): (a: number, b: number) => number {
  const { averageRating, reviewCount } = attributes;
  return sort === "rating"
    ? (a, b) => averageRating[b]! - averageRating[a]! || reviewCount[b]! - reviewCount[a]! || a - b
    : (a, b) => reviewCount[b]! - reviewCount[a]! || a - b;
}

function positionsOf(order: Int32Array): Int32Array {
  const positionOf = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) positionOf[order[i]!] = i;
  return positionOf;
}
