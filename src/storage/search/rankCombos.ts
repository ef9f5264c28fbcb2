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

/** Counting space per kind of combinations, reused by every count (see withComboCounts). */
const countSpace = new WeakMap<RankCombos, { counts: Int32Array; busy: boolean }>();

/**
 * How many of `matches` have each combination, for each of `kinds` (distinct), handed to `use`:
 * the counts live in space each kind keeps for counting, valid only inside `use`, and zeroed
 * after it. Allocating a 4,425-slot array per count (an office combination a slot) cost more
 * than counting the matches of a small town; a count nested in `use` for a kind being counted
 * gets an array of its own. Two or three kinds are counted in one walk over the matches.
 */
export function withComboCounts<T>(kinds: readonly RankCombos[], matches: Int32Array, use: (countsOf: (kind: RankCombos) => Int32Array) => T): T {
  const spaces = kinds.map((kind) => {
    let space = countSpace.get(kind);
    if (space === undefined) countSpace.set(kind, (space = { counts: new Int32Array(kind.lists.start.length - 1), busy: false }));
    return space.busy ? { counts: new Int32Array(kind.lists.start.length - 1), busy: false } : space;
  });
  for (const space of spaces) space.busy = true;
  try {
    if (kinds.length === 2 || kinds.length === 3) {
      countTogether(matches, kinds[0]!.comboOf, spaces[0]!.counts, kinds[1]!.comboOf, spaces[1]!.counts, kinds[2]?.comboOf, spaces[2]?.counts);
    } else {
      kinds.forEach((kind, i) => countInto(kind.comboOf, matches, spaces[i]!.counts));
    }
    return use((kind) => spaces[kinds.indexOf(kind)]!.counts);
  } finally {
    for (const space of spaces) {
      space.counts.fill(0);
      space.busy = false;
    }
  }
}

function countInto(comboOf: Int32Array, matches: Int32Array, counts: Int32Array): void {
  for (let i = 0; i < matches.length; i++) counts[comboOf[matches[i]!]!]!++;
}

/** One walk over the matches adding to two or three kinds' counts. */
function countTogether(matches: Int32Array, comboA: Int32Array, countsA: Int32Array, comboB: Int32Array, countsB: Int32Array, comboC?: Int32Array, countsC?: Int32Array): void {
  if (comboC === undefined || countsC === undefined) {
    for (let i = 0; i < matches.length; i++) {
      const rank = matches[i]!;
      countsA[comboA[rank]!]!++;
      countsB[comboB[rank]!]!++;
    }
    return;
  }
  for (let i = 0; i < matches.length; i++) {
    const rank = matches[i]!;
    countsA[comboA[rank]!]!++;
    countsB[comboB[rank]!]!++;
    countsC[comboC[rank]!]!++;
  }
}

/** Counts per value (`size` values) from counts per combination: each value in a combination's list gets its count. */
export function spreadCombos(lists: RankLists, perCombo: Int32Array, size: number): Int32Array {
  const counts = new Int32Array(size);
  const { start, values } = lists;
  for (let combo = 0; combo < perCombo.length; combo++) {
    const count = perCombo[combo]!;
    if (count === 0) continue;
    for (let k = start[combo]!; k < start[combo + 1]!; k++) counts[values[k]!]! += count;
  }
  return counts;
}
