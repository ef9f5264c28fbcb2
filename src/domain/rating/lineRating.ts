import type { ProvinceCode } from "../provinces.ts";
import type { Region } from "./region.ts";

/** What every line's pricing needs besides the details. */
export interface RatingContext {
  province: ProvinceCode;
  region: Region;
  /** The instant of the quote: vehicle and building ages are counted from its year. */
  now: Date;
}

/** A line's price before any carrier's own factor, and what it covers. */
export interface LineRating {
  /** Annual premium in dollars (unrounded) for the standard package. */
  annual: number;
  /** Deductible in dollars (0 for lines without one). */
  deductible: number;
  coverage: { standard: string; enhanced: string };
}

export const DEFAULT_DEDUCTIBLE = 1000;

/** Picks the factor of the band a value falls in: bands are [upper bound inclusive, factor], ascending. */
export function band(value: number, bands: readonly (readonly [number, number])[], above: number): number {
  for (const [upTo, factor] of bands) if (value <= upTo) return factor;
  return above;
}

/** Prior claims: +30 % for one, +70 % for two…, capped at ×4. */
export function claimsFactor(claims: number): number {
  return Math.min(4, 1 + 0.25 * claims + 0.05 * claims * claims);
}
