import { z } from "zod";
import { DEDUCTIBLES, LIFE_TERMS, PROPERTY_TYPES, TRAVEL_DESTINATIONS, type QuoteDetailsByLine, type QuoteLine } from "../domain/quotes/details.ts";
import { requiredOr } from "./fieldErrors.ts";
import { said } from "./frenchMessages.ts";
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
const figureFr = (n: number) => (n < 10_000 ? String(n) : n.toLocaleString("fr-CA"));

/** `whatFr`: the French of `what` (as every field below). */
const wholeNumber = (min: number, max: number, what: string, whatFr: string) =>
  z
    .number({ error: requiredOr(said(`must be a number (${what})`, `doit être un nombre (${whatFr})`)) })
    .int({ error: said(`must be a whole number (${what})`, `doit être un nombre entier (${whatFr})`) })
    .min(min, { error: said(`must be at least ${figure(min)} (${what})`, `doit être d’au moins ${figureFr(min)} (${whatFr})`) })
    .max(max, { error: said(`must be at most ${figure(max)} (${what})`, `doit être d’au plus ${figureFr(max)} (${whatFr})`) });

const name = (what: string, whatFr: string) =>
  withoutControls(
    z
      .string({ error: requiredOr(said(`must be text (${what})`, `doit être du texte (${whatFr})`)) })
      .trim()
      .min(1, { error: said(`must not be empty (${what})`, `ne doit pas être vide (${whatFr})`) })
      .max(60, { error: said(`must be at most 60 characters (${what})`, `doit compter au plus 60 caractères (${whatFr})`) }),
  );

const deductible = z
  .union(DEDUCTIBLES.map((d) => z.literal(d)), { error: said(`must be one of ${DEDUCTIBLES.join(", ")}`, `doit être l’une des valeurs ${DEDUCTIBLES.join(", ")}`) })
  .optional()
  .describe(`Deductible in dollars: ${DEDUCTIBLES.join(", ")} (default 1000)`);

const claims = wholeNumber(0, 10, "claims in the last 5 years", "sinistres des 5 dernières années").describe("Claims in the last five years");

export function quoteDetailsSchemas(now: Date = new Date()) {
  const nextYear = now.getUTCFullYear() + 1;
  return {
    auto: z.strictObject({
      vehicleYear: wholeNumber(1950, nextYear, "model year", "année du modèle").describe(`Model year, 1950 to ${nextYear}`),
      vehicleMake: name("vehicle make, e.g. Toyota", "marque du véhicule, p. ex. Toyota").describe("Vehicle make, e.g. Toyota"),
      vehicleModel: name("vehicle model, e.g. RAV4", "modèle du véhicule, p. ex. RAV4").describe("Vehicle model, e.g. RAV4"),
      driverAge: wholeNumber(16, 100, "driver's age in years", "âge du conducteur, en années").describe("Principal driver's age, 16 to 100"),
      cleanRecord: z
        .boolean({
          error: requiredOr(
            said(
              "must be true or false (no at-fault claims or convictions in 6 years)",
              "doit être true ou false (aucun sinistre responsable ni aucune condamnation en 6 ans)",
            ),
          ),
        })
        .describe("No at-fault claims or convictions in the last six years"),
      yearsLicensed: wholeNumber(0, 84, "years licensed", "années de permis").optional().describe("Years the driver has held a full licence"),
      annualKm: wholeNumber(0, 100_000, "kilometres driven a year", "kilomètres parcourus par année").optional().describe("Kilometres driven a year"),
      deductible,
    }),
    home: z.strictObject({
      propertyType: z.enum(PROPERTY_TYPES, { error: requiredOr(said(`must be one of ${PROPERTY_TYPES.join(", ")}`, `doit être l’une des valeurs ${PROPERTY_TYPES.join(", ")}`)) }).describe("Kind of house"),
      yearBuilt: wholeNumber(1800, now.getUTCFullYear(), "year built", "année de construction").describe("Year the house was built"),
      replacementCost: wholeNumber(50_000, 10_000_000, "dollars to rebuild", "dollars pour reconstruire").describe("Cost to rebuild, in dollars"),
      claimsLast5Years: claims,
      deductible,
    }),
    condo: z.strictObject({
      yearBuilt: wholeNumber(1800, now.getUTCFullYear(), "year built", "année de construction").describe("Year the building was built"),
      contentsValue: wholeNumber(5_000, 1_000_000, "dollars of belongings", "dollars de biens").describe("Value of belongings, in dollars"),
      claimsLast5Years: claims,
      deductible,
    }),
    tenant: z.strictObject({
      contentsValue: wholeNumber(5_000, 500_000, "dollars of belongings", "dollars de biens").describe("Value of belongings, in dollars"),
      claimsLast5Years: claims,
      deductible,
    }),
    life: z.strictObject({
      age: wholeNumber(18, 85, "age in years", "âge, en années").describe("Age of the insured, 18 to 85"),
      smoker: z.boolean({ error: requiredOr(said("must be true or false", "doit être true ou false")) }).describe("Used tobacco or nicotine in the last 12 months"),
      coverageAmount: wholeNumber(50_000, 10_000_000, "dollars of coverage", "dollars de protection").describe("Death benefit, in dollars"),
      termYears: z
        .union(LIFE_TERMS.map((t) => z.literal(t)), { error: requiredOr(said("must be 10, 20 or 30", "doit être 10, 20 ou 30")) })
        .describe("Term in years: 10, 20 or 30"),
    }),
    travel: z.strictObject({
      tripDays: wholeNumber(1, 365, "days away", "jours d’absence").describe("Length of the trip in days"),
      travellerAges: z
        .array(wholeNumber(0, 100, "age in years", "âge, en années"), { error: requiredOr(said("must be a list of ages", "doit être une liste d’âges")) })
        .min(1, { error: said("must list at least one traveller's age", "doit indiquer l’âge d’au moins un voyageur") })
        .max(10, { error: said("must list at most 10 travellers", "doit compter au plus 10 voyageurs") })
        .describe("Age of each traveller"),
      destination: z
        .enum(TRAVEL_DESTINATIONS, { error: requiredOr(said(`must be one of ${TRAVEL_DESTINATIONS.join(", ")}`, `doit être l’une des valeurs ${TRAVEL_DESTINATIONS.join(", ")}`)) })
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
