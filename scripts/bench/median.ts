/**
 * The middle of the values, the upper one of an even count (no averaging: every figure printed is
 * one that was measured). The bench's turns and rounds use it; replicaStart.ts averages its two.
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
