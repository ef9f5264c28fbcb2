import { flattenLists, type RankLists } from "./rankLists.ts";

/**
 * Per-rank value lists grouped by content. Brokers share few distinct lists (100,000 brokers
 * have a few hundred combinations of insurance lines, fewer of languages, and one or two
 * offices' places each), so a facet count adds one per match to its combination, then spreads
 * each combination's count over the combination's values: one increment per match instead of
 * one per value, the same counts.
 */
export interface RankCombos {
  /** The combination of each rank. */
  comboOf: Int32Array;
  /** The values of each combination, as the ranks' lists hold them (order and repeats kept). */
  lists: RankLists;
}

/** Groups the ranks' lists by content. */
export function combosOf(lists: RankLists): RankCombos {
  const ranks = lists.start.length - 1;
  const comboOf = new Int32Array(Math.max(0, ranks));
  const idOfContent = new Map<string, number>();
  const contents: Int32Array[] = [];
  for (let rank = 0; rank < ranks; rank++) {
    const values = lists.values.subarray(lists.start[rank]!, lists.start[rank + 1]!);
    const content = values.join(",");
    let id = idOfContent.get(content);
    if (id === undefined) {
      idOfContent.set(content, (id = contents.length));
      contents.push(values);
    }
    comboOf[rank] = id;
  }
  return { comboOf, lists: flattenLists(contents) };
}

/** How many of `matches` have each combination. */
export function countCombos(combos: RankCombos, matches: Int32Array): Int32Array {
  const counts = new Int32Array(combos.lists.start.length - 1);
  const { comboOf } = combos;
  for (let i = 0; i < matches.length; i++) counts[comboOf[matches[i]!]!]!++;
  return counts;
}

/** Counts per value (`size` values) from counts per combination: each value of a combination gets its count. */
export function spreadCombos(combos: RankCombos, perCombo: Int32Array, size: number): Int32Array {
  const counts = new Int32Array(size);
  const { start, values } = combos.lists;
  for (let combo = 0; combo < perCombo.length; combo++) {
    const count = perCombo[combo]!;
    if (count === 0) continue;
    for (let k = start[combo]!; k < start[combo + 1]!; k++) counts[values[k]!]! += count;
  }
  return counts;
}
