import { z } from "zod";
import { PROVINCE_CODES } from "../domain/provinces.ts";
import { QUOTE_LINE_LABELS } from "../domain/quotes/insuranceTypes.ts";
import { requiredOr } from "./fieldErrors.ts";
import { idText } from "./idText.ts";
import { said } from "./frenchMessages.ts";

/** A quote as every procedure that answers with one shows it (quotes.create, quotes.get, a lead's detail), and the id that names it. */
export const quoteId = idText(requiredOr(said("must be text: a quote id such as qt_3f2a…", "doit être du texte : un id de soumission comme qt_3f2a…"))).describe("The quote's id, as returned when the quote was created");

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
