import type { BrokerSort } from "../schemas/discovery.ts";
import type { BrokerAttributes } from "./brokerAttributes.ts";
import type { RankSet } from "./rankSets.ts";

/** Ranks fit in 21 bits (two million brokers), so a sort key can carry the rank below a measure. */
const RANK_BITS = 2 ** 21;

/**
 * Orders matching ranks (ascending = alphabetical) as `sort` asks. Every order ends on the
 * rank, so ties go alphabetical and a page boundary never repeats or skips a broker. Distance
 * and relevance pack (measure, rank) into one float so the engine's native numeric sort does
 * the work; rating and reviews walk an order computed once per directory version.
 */
export function orderRanks(
  matches: Int32Array,
  sort: BrokerSort,
  context: { attributes?: BrokerAttributes; near?: RankSet; text?: RankSet; globalOrder: (sort: "rating" | "reviews") => Int32Array },
): Int32Array {
  if (sort === "name" || matches.length < 2) return matches;
  if (sort === "rating" || sort === "reviews") return filterOrder(context.globalOrder(sort), matches);
  const measureSet = sort === "distance" ? context.near : context.text;
  if (!measureSet) return matches;
  const values = valuesFor(matches, measureSet);
  const keys = new Float64Array(matches.length);
  for (let i = 0; i < matches.length; i++) {
    // Distance in metres; bm25 (negative, lower is better) shifted positive at 1e-5 resolution.
    const value = values[i]!;
    const measure = sort === "distance" ? Math.round(value * 1000) : Math.round((Math.max(-1000, value) + 1000) * 1e5);
    keys[i] = measure * RANK_BITS + matches[i]!;
  }
  keys.sort();
  const ordered = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) ordered[i] = keys[i]! % RANK_BITS;
  return ordered;
}

/** The set's value for each match: both ascending, so one walk through the set (matches are a subset of it). */
function valuesFor(matches: Int32Array, set: RankSet): Float64Array {
  const out = new Float64Array(matches.length);
  const { ranks, values } = set;
  if (!values) return out;
  let j = 0;
  for (let i = 0; i < matches.length; i++) {
    const rank = matches[i]!;
    while (j < ranks.length && ranks[j]! < rank) j++;
    out[i] = ranks[j] === rank ? values[j]! : 0;
  }
  return out;
}

/** Highest average first, then most reviewed, then alphabetical; or most reviewed first, then alphabetical. */
export function globalOrder(attributes: BrokerAttributes, sort: "rating" | "reviews"): Int32Array {
  const { averageRating, reviewCount } = attributes;
  const order = Int32Array.from({ length: averageRating.length }, (_, rank) => rank);
  return order.sort((a, b) =>
    sort === "rating"
      ? averageRating[b]! - averageRating[a]! || reviewCount[b]! - reviewCount[a]! || a - b
      : reviewCount[b]! - reviewCount[a]! || a - b,
  );
}

/** The members of `order` that are in `matches` (ascending), keeping `order`'s sequence: O(n). */
function filterOrder(order: Int32Array, matches: Int32Array): Int32Array {
  if (matches.length === order.length) return order;
  const member = new Uint8Array(order.length);
  for (let i = 0; i < matches.length; i++) member[matches[i]!] = 1;
  const out = new Int32Array(matches.length);
  let n = 0;
  for (let i = 0; i < order.length; i++) if (member[order[i]!]) out[n++] = order[i]!;
  return out;
}
