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

/**
 * How many of `matches` have each combination, for several kinds at once (each facet's
 * combinations): one walk over the matches instead of one per kind. Kinds are distinct.
 */
export function countCombosTogether(kinds: readonly RankCombos[], matches: Int32Array): Map<RankCombos, Int32Array> {
  const counted = new Map<RankCombos, Int32Array>();
  if (kinds.length === 0) return counted;
  if (kinds.length === 1 || kinds.length > 3) {
    for (const kind of kinds) counted.set(kind, countCombos(kind, matches));
    return counted;
  }
  const [a, b, c] = [kinds[0]!, kinds[1]!, kinds[2]];
  const [countsA, countsB] = [new Int32Array(a.lists.start.length - 1), new Int32Array(b.lists.start.length - 1)];
  const [comboA, comboB] = [a.comboOf, b.comboOf];
  if (c === undefined) {
    for (let i = 0; i < matches.length; i++) {
      const rank = matches[i]!;
      countsA[comboA[rank]!]!++;
      countsB[comboB[rank]!]!++;
    }
  } else {
    const countsC = new Int32Array(c.lists.start.length - 1);
    const comboC = c.comboOf;
    for (let i = 0; i < matches.length; i++) {
      const rank = matches[i]!;
      countsA[comboA[rank]!]!++;
      countsB[comboB[rank]!]!++;
      countsC[comboC[rank]!]!++;
    }
    counted.set(c, countsC);
  }
  return counted.set(a, countsA).set(b, countsB);
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
