import { z } from "zod";
import { POSTAL_CODE_FORMAT_MESSAGE, POSTAL_CODE_FORMAT_MESSAGE_FR, normalizePostalCode } from "../../domain/postalCode.ts";
import { resolveProvince, unknownProvinceMessage, unknownProvinceMessageFr } from "../../domain/provinces.ts";
import { QUOTE_LINES } from "../../domain/quotes/details.ts";
import { LINE_LABELS, QUOTE_LINE_LABELS, resolveQuoteLine, unsupportedInsuranceTypeMessage, unsupportedInsuranceTypeMessageFr } from "../../domain/quotes/insuranceTypes.ts";
import { objectExpected, requiredOr } from "../../schemas/fieldErrors.ts";
import { toJsonSchema } from "../../schemas/jsonSchema.ts";
import { quoteDetailsSchemas } from "../../schemas/quoteDetails.ts";
import { french, said } from "../../schemas/frenchMessages.ts";

export const quoteInsuranceType = z
  .string({ error: requiredOr(said(`must be text: one of ${QUOTE_LINE_LABELS.join(", ")}`, `doit être du texte : l’une des valeurs ${QUOTE_LINE_LABELS.join(", ")}`)) })
  .max(60, { error: said(`must be one of ${QUOTE_LINE_LABELS.join(", ")}`, `doit être l’une des valeurs ${QUOTE_LINE_LABELS.join(", ")}`) })
  .superRefine((value, ctx) => {
    if (resolveQuoteLine(value) !== undefined) return;
    ctx.addIssue({ code: "custom", message: unsupportedInsuranceTypeMessage(value), params: french(unsupportedInsuranceTypeMessageFr(value)) });
  })
  .describe(`Insurance line to quote: ${QUOTE_LINE_LABELS.join(", ")} (case-insensitive; echoed back as sent)`);

export const requiredProvince = z
  .string({ error: requiredOr(said("must be text: a province or territory code or name, e.g. ON or Ontario", "doit être du texte : le code ou le nom d’une province ou d’un territoire, p. ex. ON ou Ontario")) })
  .max(60, { error: said("must be a province or territory name or code (at most 60 characters)", "doit être le nom ou le code d’une province ou d’un territoire (60 caractères au plus)") })
  .transform((value, ctx) => {
    const code = resolveProvince(value.trim());
    if (!code) {
      ctx.addIssue({ code: "custom", message: unknownProvinceMessage(value.trim()), params: french(unknownProvinceMessageFr(value.trim())) });
      return z.NEVER;
    }
    return code;
  })
  .describe("Province or territory: two-letter code (ON), English name (Ontario) or French name (Québec); case and accents ignored");

export const postalCodeField = z
  .string({ error: requiredOr(said(`must be text: ${POSTAL_CODE_FORMAT_MESSAGE}`, `doit être du texte : ${POSTAL_CODE_FORMAT_MESSAGE_FR.replace(/^doit être /, "")}`)) })
  .max(20, { error: said(POSTAL_CODE_FORMAT_MESSAGE, POSTAL_CODE_FORMAT_MESSAGE_FR) })
  .transform((value, ctx) => {
    const normalized = normalizePostalCode(value);
    if (!normalized) {
      ctx.addIssue({ code: "custom", message: said(POSTAL_CODE_FORMAT_MESSAGE, POSTAL_CODE_FORMAT_MESSAGE_FR) });
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

/** What quotes.create takes: the line, the place, and the details that line needs (each line's checked by createQuote). */
export const createQuoteInput = z.strictObject({
  insuranceType: quoteInsuranceType,
  province: requiredProvince,
  postalCode: postalCodeField,
  details: z
    .record(z.string(), z.unknown(), { error: requiredOr(said("must be an object with the details of the insurance type", "doit être un objet avec les détails du type d’assurance")) })
    .meta({
      description:
        "Details of the insurance type, validated per type: Auto {vehicleYear, vehicleMake, vehicleModel, driverAge, cleanRecord, yearsLicensed?, annualKm?, deductible?}, " +
        "Home {propertyType, yearBuilt, replacementCost, claimsLast5Years, deductible?}, Condo {yearBuilt, contentsValue, claimsLast5Years, deductible?}, " +
        "Tenant {contentsValue, claimsLast5Years, deductible?}, Life {age, smoker, coverageAmount, termYears}, Travel {tripDays, travellerAges, destination}",
      anyOf: documentedDetails,
    }),
}, { error: objectExpected("a JSON object {insuranceType, province, postalCode, details}", "un objet JSON {insuranceType, province, postalCode, details}") });
export type CreateQuoteInput = z.infer<typeof createQuoteInput>;

