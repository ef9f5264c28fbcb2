/**
 * The middle of the values, the upper one of an even count (no averaging: every figure printed is
 * one that was measured). The bench's turns and rounds use it; replicaStart.ts averages its two.
 */
export function median(values: readonly number[]): number {
  return medianBy(values, (value) => value);
}

/** The item whose `measure` is the median of the items' (the upper one of an even count): a whole measured run, not a number. */
export function medianBy<T>(items: readonly T[], measure: (item: T) => number): T {
  if (items.length === 0) throw new Error("median of nothing");
  return [...items].sort((a, b) => measure(a) - measure(b))[Math.floor(items.length / 2)]!;
}
