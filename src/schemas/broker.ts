import { z } from "zod";
import { PROVINCE_CODES } from "../domain/provinces.ts";

const province = z.enum(PROVINCE_CODES).describe("Two-letter province or territory code");
const averageRating = z
  .number()
  .nullable()
  .describe("Mean of the published reviews' ratings (1–5), two decimals; null when there are none");

export const brokerListItemSchema = z.object({
  id: z.number().int().describe("Numeric broker id (used by the reviews endpoint)"),
  name: z.string(),
  slug: z.string().describe("Stable URL-safe identifier"),
  description: z.string(),
  province: province.describe("Province of the broker's primary office"),
  city: z.string().describe("City of the broker's primary office"),
  averageRating,
  reviewCount: z.number().int().describe("Number of published reviews"),
});
export type BrokerListItem = z.infer<typeof brokerListItemSchema>;

export const locationSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  city: z.string(),
  province,
  postalCode: z.string().describe("Canadian postal code, A1A 1A1"),
  phone: z.string().nullable().describe("E.164"),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  isPrimary: z.boolean(),
});

export const ratingSchema = z.object({
  average: averageRating,
  count: z.number().int(),
  distribution: z
    .object({ "1": z.number().int(), "2": z.number().int(), "3": z.number().int(), "4": z.number().int(), "5": z.number().int() })
    .describe("Number of published reviews per star rating"),
});

export const brokerDetailSchema = brokerListItemSchema.extend({
  phone: z.string().nullable().describe("E.164"),
  email: z.string().nullable(),
  website: z.string().nullable(),
  licenseNumber: z.string().nullable(),
  yearEstablished: z.number().int().nullable(),
  insuranceLines: z.array(z.string()),
  specialties: z.array(z.string()),
  languages: z.array(z.string()),
  locations: z.array(locationSchema).describe("Offices; exactly one has isPrimary true"),
  rating: ratingSchema,
  createdAt: z.string().describe("ISO 8601 UTC with milliseconds"),
  updatedAt: z.string().describe("ISO 8601 UTC with milliseconds"),
});
export type BrokerDetail = z.infer<typeof brokerDetailSchema>;
