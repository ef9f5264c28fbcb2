import type { QuoteDetails } from "../quotes/details.ts";
import type { ProvinceCode } from "../provinces.ts";
import { formatWholeDollars } from "./money.ts";
import { band, DEFAULT_DEDUCTIBLE, type LineRating, type RatingContext } from "./lineRating.ts";

/** A national base for a year of full private coverage, before every factor below. */
const AUTO_BASE = 1_400;

/**
 * Provincial level of private auto premiums. BC, MB and SK sell basic auto through a public
 * insurer (ICBC, MPI, SGI), so private carriers there price optional and excess coverage only.
 */
const AUTO_PROVINCE: Record<ProvinceCode, number> = {
  ON: 1.45, AB: 1.35, NL: 1.25, NS: 1.05, NB: 1.0, PE: 0.92, QC: 0.72,
  BC: 0.6, MB: 0.5, SK: 0.5, YT: 1.05, NT: 1.1, NU: 1.15,
};
const PUBLIC_BASIC: ReadonlySet<ProvinceCode> = new Set(["BC", "MB", "SK"]);

const AUTO_REGION = { metro: 1.15, urban: 1.0, rural: 0.88 } as const;

// Younger drivers crash more; the very old somewhat more too.
const DRIVER_AGE: readonly (readonly [number, number])[] = [[19, 2.1], [24, 1.55], [29, 1.2], [64, 1.0], [74, 1.05]];
const YEARS_LICENSED: readonly (readonly [number, number])[] = [[1, 1.35], [4, 1.15], [9, 1.05]];
// Newer cars cost more to repair or replace.
const VEHICLE_AGE: readonly (readonly [number, number])[] = [[2, 1.15], [7, 1.0], [14, 0.9]];
const ANNUAL_KM: readonly (readonly [number, number])[] = [[7_999, 0.92], [20_000, 1.0], [30_000, 1.08]];
const AUTO_DEDUCTIBLE: Record<number, number> = { 500: 1.08, 1000: 1.0, 2500: 0.9, 5000: 0.83 };
/** Makes whose parts and theft losses cost more. */
const COSTLY_MAKES = new Set(["audi", "bmw", "jaguar", "land rover", "lexus", "mercedes-benz", "mercedes", "porsche", "range rover", "tesla"]);

export function rateAuto(details: QuoteDetails<"auto">, { province, region, now }: RatingContext): LineRating {
  const deductible = details.deductible ?? DEFAULT_DEDUCTIBLE;
  const vehicleAge = now.getUTCFullYear() - details.vehicleYear;
  // Without a stated licence history, assume licensed since 16.
  const yearsLicensed = details.yearsLicensed ?? Math.max(0, details.driverAge - 16);
  const annual =
    AUTO_BASE *
    AUTO_PROVINCE[province] *
    AUTO_REGION[region] *
    band(details.driverAge, DRIVER_AGE, 1.25) *
    band(yearsLicensed, YEARS_LICENSED, 1.0) *
    (details.cleanRecord ? 1.0 : 1.45) *
    band(vehicleAge, VEHICLE_AGE, 0.8) *
    band(details.annualKm ?? 15_000, ANNUAL_KM, 1.15) *
    (AUTO_DEDUCTIBLE[deductible] ?? 1) *
    (COSTLY_MAKES.has(details.vehicleMake.trim().toLowerCase()) ? 1.2 : 1.0);

  const liability = (amount: number) =>
    PUBLIC_BASIC.has(province)
      ? `Optional third-party liability ${formatWholeDollars(amount)} over the public basic plan`
      : `Third-party liability ${formatWholeDollars(amount)}`;
  return {
    annual,
    deductible,
    coverage: {
      standard: `${liability(1_000_000)}, collision, comprehensive`,
      enhanced: `${liability(2_000_000)}, collision, comprehensive, accident forgiveness`,
    },
  };
}
