import { z } from "zod";
import { PROVINCE_CODES } from "../domain/provinces.ts";
import { TEAM_SIZES } from "../domain/teamSize.ts";
import { idText } from "./idText.ts";

const province = z.enum(PROVINCE_CODES).describe("Two-letter province or territory code");

/** Broker ids are opaque strings (spec 2.1): clients must not do arithmetic on them. */
export const brokerId = z.string().describe('The broker\'s id, an opaque string such as "92" (the reviews endpoint takes it)');

export const brokerSlug = idText("is required: the broker's slug, e.g. maple-leaf-insurance-brokers", 200).describe("The broker's slug, as returned by search");

export const averageRating = z
  .number()
  .describe("Mean of the published reviews' ratings (1–5), two decimals; 0 when there are none (reviewCount 0)");

export const brokerListItemSchema = z.object({
  id: brokerId,
  name: z.string(),
  slug: z.string().describe("Stable URL-safe identifier"),
  description: z.string(),
  province: province.describe("Province of the broker's primary office"),
  city: z.string().describe("City of the broker's primary office"),
  averageRating,
  reviewCount: z.number().int().describe("Number of published reviews"),
  isVerified: z.boolean().describe("Whether its licence was checked with the provincial regulator"),
});
export type BrokerListItem = z.infer<typeof brokerListItemSchema>;

export const locationSchema = z.object({
  id: z.string().describe("The office's id, an opaque string"),
  address: z.string(),
  city: z.string(),
  province,
  postalCode: z.string().describe("Canadian postal code, A1A 1A1"),
  phone: z.string().nullable().describe("E.164; null when the office has no line of its own"),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  isPrimary: z.boolean(),
});

export const ratingSchema = z.object({
  averageRating,
  totalReviews: z.number().int().describe("Number of published reviews (the same as reviewCount)"),
  distribution: z
    .object({ "1": z.number().int(), "2": z.number().int(), "3": z.number().int(), "4": z.number().int(), "5": z.number().int() })
    .describe("Number of published reviews per star rating"),
});

export const brokerDetailSchema = brokerListItemSchema.extend({
  email: z.string().describe("Contact e-mail"),
  phone: z.string().describe("Main line, E.164"),
  website: z.string().describe("URL of the broker's site"),
  foundingYear: z.number().int().describe("Year the brokerage was founded"),
  teamSize: z.enum(TEAM_SIZES).describe(`Head count as a range label: ${TEAM_SIZES.join(", ")}`),
  licenseNumber: z.string().nullable().describe("Provincial licence number; null when not on file"),
  rating: ratingSchema,
  locations: z.array(locationSchema).describe("Offices; exactly one has isPrimary true"),
  insuranceLines: z.array(z.string()),
  specialties: z.array(z.string()),
  languages: z.array(z.string()),
  createdAt: z.string().describe("ISO 8601 UTC with milliseconds"),
  updatedAt: z.string().describe("ISO 8601 UTC with milliseconds"),
});
export type BrokerDetail = z.infer<typeof brokerDetailSchema>;
