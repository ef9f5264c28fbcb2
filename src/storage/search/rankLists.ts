/** A list per rank, stored flat: the values of rank r are values[start[r] … start[r + 1]). */
export interface RankLists {
  start: Int32Array;
  values: Int32Array;
}

/** The lists, one per rank in order, stored flat. */
export function flattenLists(lists: readonly ArrayLike<number>[]): RankLists {
  const start = new Int32Array(lists.length + 1);
  let total = 0;
  lists.forEach((list, i) => {
    start[i] = total;
    total += list.length;
  });
  start[lists.length] = total;
  const values = new Int32Array(total);
  lists.forEach((list, i) => values.set(list as ArrayLike<number>, start[i]!));
  return { start, values };
}
