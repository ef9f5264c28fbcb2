const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 } as const;

/** "30d", "12h", "90m", "2w", "1y" → milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})([mhdwy])$/.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  return amount > 0 ? amount * UNIT_MS[match[2] as keyof typeof UNIT_MS] : undefined;
}
