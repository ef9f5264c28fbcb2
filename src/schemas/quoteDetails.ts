import { z } from "zod";
import { DEDUCTIBLES, LIFE_TERMS, PROPERTY_TYPES, TRAVEL_DESTINATIONS, type QuoteDetailsByLine, type QuoteLine } from "../domain/quotes/details.ts";
import { requiredOr } from "./fieldErrors.ts";
import { withoutControls } from "./plainText.ts";

/**
 * The details a quote needs, one schema per insurance line the rating engine prices.
 * This is the single validation of those fields: the quote procedure validates with it,
 * MCP and OpenAPI derive their JSON Schema from it, and the widget mirrors it client-side.
 * Each schema yields exactly the domain's shape (src/domain/quotes/details.ts): see the check
 * at the end. `now` is injected so the vehicle-year bound does not depend on a hidden clock.
 */

// Years read better without a thousands separator; money and distances with one.
const figure = (n: number) => (n < 10_000 ? String(n) : n.toLocaleString("en-CA"));

const wholeNumber = (min: number, max: number, what: string) =>
  z
    .number({ error: requiredOr(`must be a number (${what})`) })
    .int({ error: `must be a whole number (${what})` })
    .min(min, { error: `must be at least ${figure(min)} (${what})` })
    .max(max, { error: `must be at most ${figure(max)} (${what})` });

const name = (what: string) =>
  withoutControls(
    z
      .string({ error: requiredOr(`must be text (${what})`) })
      .trim()
      .min(1, { error: `must not be empty (${what})` })
      .max(60, { error: `must be at most 60 characters (${what})` }),
  );

const deductible = z
  .union(DEDUCTIBLES.map((d) => z.literal(d)), { error: `must be one of ${DEDUCTIBLES.join(", ")}` })
  .optional()
  .describe(`Deductible in dollars: ${DEDUCTIBLES.join(", ")} (default 1000)`);

const claims = wholeNumber(0, 10, "claims in the last 5 years").describe("Claims in the last five years");

export function quoteDetailsSchemas(now: Date = new Date()) {
  const nextYear = now.getUTCFullYear() + 1;
  return {
    auto: z.strictObject({
      vehicleYear: wholeNumber(1950, nextYear, "model year").describe(`Model year, 1950 to ${nextYear}`),
      vehicleMake: name("vehicle make, e.g. Toyota").describe("Vehicle make, e.g. Toyota"),
      vehicleModel: name("vehicle model, e.g. RAV4").describe("Vehicle model, e.g. RAV4"),
      driverAge: wholeNumber(16, 100, "driver's age in years").describe("Principal driver's age, 16 to 100"),
      cleanRecord: z
        .boolean({ error: requiredOr("must be true or false (no at-fault claims or convictions in 6 years)") })
        .describe("No at-fault claims or convictions in the last six years"),
      yearsLicensed: wholeNumber(0, 84, "years licensed").optional().describe("Years the driver has held a full licence"),
      annualKm: wholeNumber(0, 100_000, "kilometres driven a year").optional().describe("Kilometres driven a year"),
      deductible,
    }),
    home: z.strictObject({
      propertyType: z.enum(PROPERTY_TYPES, { error: requiredOr(`must be one of ${PROPERTY_TYPES.join(", ")}`) }).describe("Kind of house"),
      yearBuilt: wholeNumber(1800, now.getUTCFullYear(), "year built").describe("Year the house was built"),
      replacementCost: wholeNumber(50_000, 10_000_000, "dollars to rebuild").describe("Cost to rebuild, in dollars"),
      claimsLast5Years: claims,
      deductible,
    }),
    condo: z.strictObject({
      yearBuilt: wholeNumber(1800, now.getUTCFullYear(), "year built").describe("Year the building was built"),
      contentsValue: wholeNumber(5_000, 1_000_000, "dollars of belongings").describe("Value of belongings, in dollars"),
      claimsLast5Years: claims,
      deductible,
    }),
    tenant: z.strictObject({
      contentsValue: wholeNumber(5_000, 500_000, "dollars of belongings").describe("Value of belongings, in dollars"),
      claimsLast5Years: claims,
      deductible,
    }),
    life: z.strictObject({
      age: wholeNumber(18, 85, "age in years").describe("Age of the insured, 18 to 85"),
      smoker: z.boolean({ error: requiredOr("must be true or false") }).describe("Used tobacco or nicotine in the last 12 months"),
      coverageAmount: wholeNumber(50_000, 10_000_000, "dollars of coverage").describe("Death benefit, in dollars"),
      termYears: z
        .union(LIFE_TERMS.map((t) => z.literal(t)), { error: requiredOr("must be 10, 20 or 30") })
        .describe("Term in years: 10, 20 or 30"),
    }),
    travel: z.strictObject({
      tripDays: wholeNumber(1, 365, "days away").describe("Length of the trip in days"),
      travellerAges: z
        .array(wholeNumber(0, 100, "age in years"), { error: requiredOr("must be a list of ages") })
        .min(1, { error: "must list at least one traveller's age" })
        .max(10, { error: "must list at most 10 travellers" })
        .describe("Age of each traveller"),
      destination: z
        .enum(TRAVEL_DESTINATIONS, { error: requiredOr(`must be one of ${TRAVEL_DESTINATIONS.join(", ")}`) })
        .describe("Where: canada (another province), usa, or world"),
    }),
  } as const;
}

export type QuoteDetailsSchemas = ReturnType<typeof quoteDetailsSchemas>;

// The schemas parse into exactly the domain's shapes, and the domain's shapes are exactly what
// the schemas accept: a field added, dropped or retyped on one side only fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: { [L in QuoteLine]: Same<z.output<QuoteDetailsSchemas[L]>, QuoteDetailsByLine[L]> } = {
  auto: true,
  home: true,
  condo: true,
  tenant: true,
  life: true,
  travel: true,
};
void sameShapes;
