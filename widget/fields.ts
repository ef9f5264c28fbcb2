/**
 * What each insurance line asks for, as a small table the quote form renders and validates.
 * It mirrors the zod schemas in src/schemas/quoteDetails.ts (zod itself would blow the
 * 30 KB bundle budget); test/widget/rules.test.ts compares bounds, options and required
 * flags against z.toJSONSchema of those schemas, so the two cannot drift silently.
 */
export const QUOTE_LINES = ["Auto", "Home", "Condo", "Tenant", "Life", "Travel"] as const;
export type QuoteLine = (typeof QUOTE_LINES)[number];

export type FieldRule =
  | { name: string; kind: "int"; required: boolean; min: number; max: number }
  | { name: string; kind: "text"; required: boolean; maxLength: number }
  | { name: string; kind: "bool"; required: boolean }
  | { name: string; kind: "choice"; required: boolean; options: readonly (string | number)[] }
  | { name: string; kind: "intList"; required: boolean; min: number; max: number; minItems: number; maxItems: number };

const DEDUCTIBLES = [500, 1000, 2500, 5000] as const;

const int = (name: string, min: number, max: number, required = true): FieldRule => ({ name, kind: "int", required, min, max });
const text = (name: string): FieldRule => ({ name, kind: "text", required: true, maxLength: 60 });
const bool = (name: string): FieldRule => ({ name, kind: "bool", required: true });
const choice = (name: string, options: readonly (string | number)[], required = true): FieldRule => ({
  name,
  kind: "choice",
  required,
  options,
});
const deductible = choice("deductible", DEDUCTIBLES, false);
const claims = int("claimsLast5Years", 0, 10);

/** The fields per line; `now` fixes the year bounds exactly as the server computes them. */
export function quoteFields(now: Date = new Date()): Record<QuoteLine, readonly FieldRule[]> {
  const year = now.getUTCFullYear();
  return {
    Auto: [
      int("vehicleYear", 1950, year + 1),
      text("vehicleMake"),
      text("vehicleModel"),
      int("driverAge", 16, 100),
      bool("cleanRecord"),
      int("yearsLicensed", 0, 84, false),
      int("annualKm", 0, 100_000, false),
      deductible,
    ],
    Home: [
      choice("propertyType", ["detached", "semi-detached", "townhouse", "mobile"]),
      int("yearBuilt", 1800, year),
      int("replacementCost", 50_000, 10_000_000),
      claims,
      deductible,
    ],
    Condo: [int("yearBuilt", 1800, year), int("contentsValue", 5_000, 1_000_000), claims, deductible],
    Tenant: [int("contentsValue", 5_000, 500_000), claims, deductible],
    Life: [int("age", 18, 85), bool("smoker"), int("coverageAmount", 50_000, 10_000_000), choice("termYears", [10, 20, 30])],
    Travel: [
      int("tripDays", 1, 365),
      { name: "travellerAges", kind: "intList", required: true, min: 0, max: 100, minItems: 1, maxItems: 10 },
      choice("destination", ["canada", "usa", "world"]),
    ],
  };
}

/** "auto", "AUTO" → "Auto"; undefined for a line the engine does not price. */
export function toQuoteLine(value: string | undefined | null): QuoteLine | undefined {
  const lower = value?.trim().toLowerCase();
  return QUOTE_LINES.find((line) => line.toLowerCase() === lower);
}
