import { z } from "zod";
import { toJsonSchema } from "../../schemas/jsonSchema.ts";
import { POSTAL_CODE_FORMAT_MESSAGE, normalizePostalCode } from "../../domain/postalCode.ts";
import { PROVINCE_CODES, resolveProvince, unknownProvinceMessage } from "../../domain/provinces.ts";
import { quoteDetailsSchemas, QUOTE_LINES } from "../../domain/quotes/details.ts";
import { LINE_LABELS, QUOTE_LINE_LABELS, resolveQuoteLine, unsupportedInsuranceTypeMessage } from "../../domain/quotes/insuranceTypes.ts";
import { objectExpected, requiredOr } from "./invalidInput.ts";

export const quoteId = z
  .string({ error: requiredOr("must be text: a quote id such as qt_3f2a…") })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(64, { error: "must be at most 64 characters" })
  .describe("The quote's id, as returned when the quote was created");

export const quoteInsuranceType = z
  .string({ error: requiredOr(`must be text: one of ${QUOTE_LINE_LABELS.join(", ")}`) })
  .max(60, { error: `must be one of ${QUOTE_LINE_LABELS.join(", ")}` })
  .refine((value) => resolveQuoteLine(value) !== undefined, { error: (issue) => unsupportedInsuranceTypeMessage(String(issue.input)) })
  .describe(`Insurance line to quote: ${QUOTE_LINE_LABELS.join(", ")} (case-insensitive; echoed back as sent)`);

export const requiredProvince = z
  .string({ error: requiredOr("must be text: a province or territory code or name, e.g. ON or Ontario") })
  .max(60, { error: "must be a province or territory name or code (at most 60 characters)" })
  .transform((value, ctx) => {
    const code = resolveProvince(value.trim());
    if (!code) {
      ctx.addIssue({ code: "custom", message: unknownProvinceMessage(value.trim()) });
      return z.NEVER;
    }
    return code;
  })
  .describe("Province or territory: two-letter code (ON), English name (Ontario) or French name (Québec); case and accents ignored");

export const postalCodeField = z
  .string({ error: requiredOr(`must be text: ${POSTAL_CODE_FORMAT_MESSAGE}`) })
  .max(20, { error: POSTAL_CODE_FORMAT_MESSAGE })
  .transform((value, ctx) => {
    const normalized = normalizePostalCode(value);
    if (!normalized) {
      ctx.addIssue({ code: "custom", message: POSTAL_CODE_FORMAT_MESSAGE });
      return z.NEVER;
    }
    return normalized;
  })
  .describe("Canadian postal code, A1A 1A1 (space optional, any case); its first letter must belong to the province");

// JSON Schema of each line's details, for the documentation of `details` (MCP, OpenAPI).
const documentedDetails = (() => {
  const schemas = quoteDetailsSchemas();
  return QUOTE_LINES.map((line) => {
    const { $schema: _ignored, ...json } = toJsonSchema(schemas[line], { io: "input" });
    return { ...json, title: `${LINE_LABELS[line]} details` };
  });
})();

export const createQuoteInput = z.strictObject({
  insuranceType: quoteInsuranceType,
  province: requiredProvince,
  postalCode: postalCodeField,
  details: z
    .record(z.string(), z.unknown(), { error: requiredOr("must be an object with the details of the insurance type") })
    .meta({
      description:
        "Details of the insurance type, validated per type: Auto {vehicleYear, vehicleMake, vehicleModel, driverAge, cleanRecord, yearsLicensed?, annualKm?, deductible?}, " +
        "Home {propertyType, yearBuilt, replacementCost, claimsLast5Years, deductible?}, Condo {yearBuilt, contentsValue, claimsLast5Years, deductible?}, " +
        "Tenant {contentsValue, claimsLast5Years, deductible?}, Life {age, smoker, coverageAmount, termYears}, Travel {tripDays, travellerAges, destination}",
      anyOf: documentedDetails,
    }),
}, { error: objectExpected("a JSON object {insuranceType, province, postalCode, details}") });
export type CreateQuoteInput = z.infer<typeof createQuoteInput>;

export const quoteOfferSchema = z.object({
  carrier: z.string().describe("Carrier name"),
  carrierSlug: z.string().describe("Carrier's stable id in the catalogue (GET /api/v1/carriers)"),
  monthlyPremium: z.number().describe("Dollars: annualPremium / 12, rounded half away from zero to the cent"),
  annualPremium: z.number().describe("Dollars, rounded half away from zero to the cent"),
  coverage: z.string().describe("What the policy covers, comma-separated"),
  deductible: z.number().describe("Deductible in dollars (0 for life and travel)"),
});
export type QuoteOffer = z.infer<typeof quoteOfferSchema>;

export const quoteSchema = z.object({
  quoteId: z.string(),
  insuranceType: z.string().describe("As sent in the request"),
  insuranceLine: z.enum(QUOTE_LINE_LABELS as [string, ...string[]]).describe("The line it was priced as"),
  province: z.enum(PROVINCE_CODES),
  postalCode: z.string().describe("Normalised, A1A 1A1"),
  details: z.record(z.string(), z.unknown()).describe("The validated details the premiums were computed from"),
  currency: z.literal("CAD"),
  quotes: z.array(quoteOfferSchema).describe("3 to 8 offers, cheapest monthly premium first"),
  createdAt: z.string().describe("ISO 8601 UTC"),
  expiresAt: z.string().describe("ISO 8601 UTC: 30 days after createdAt"),
  expired: z.boolean().describe("Whether expiresAt has passed; an expired quote stays readable"),
});
export type QuoteView = z.infer<typeof quoteSchema>;
