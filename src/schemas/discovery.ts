import { z } from "zod";
import { NEAR_FORMAT_MESSAGE, NEAR_FORMAT_MESSAGE_FR, parseNear } from "../domain/geo/nearPoint.ts";
import { languageKey } from "../domain/languages.ts";
import { foldText } from "../domain/text.ts";
import { got } from "./fieldErrors.ts";
import { french, said } from "./frenchMessages.ts";

/** Empty text parameters (`?language=`) mean "no filter", like absent ones. */
const blank = (value: string) => value.trim() === "";

/**
 * A decimal parameter that also accepts its text form (query strings are text): "abc", "",
 * NaN and out-of-range values are refused with a message naming the range.
 */
export function decimalParam(min: number, max: number) {
  const complaint = said(`must be a number from ${min} to ${max}`, `doit être un nombre de ${min} à ${max}`);
  return z.preprocess(
    // Typed so tRPC clients see `number | string`, not unknown.
    (value: number | string) => (typeof value === "string" && /^\s*-?\d{1,6}(?:\.\d{1,6})?\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => complaint + got(issue.input) })
      .min(min, { error: (issue) => complaint + got(issue.input) })
      .max(max, { error: (issue) => complaint + got(issue.input) }),
  );
}

export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 500;

export const nearParam = z
  .string()
  .max(60, { error: said(NEAR_FORMAT_MESSAGE, NEAR_FORMAT_MESSAGE_FR) })
  .transform((value, ctx) => {
    if (blank(value)) return undefined;
    const parsed = parseNear(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message, params: french(parsed.fr) });
      return z.NEVER;
    }
    return parsed.point;
  })
  .optional()
  .describe("Brokers with an office near a place: a postal code (M5V 3L9, m5v3l9), just its first three characters (M5V), or latitude,longitude (43.65,-79.38)");

export const radiusKmParam = decimalParam(1, MAX_RADIUS_KM)
  .optional()
  .default(DEFAULT_RADIUS_KM)
  .describe(`With near: how far an office may be, in km, 1 to ${MAX_RADIUS_KM} (default ${DEFAULT_RADIUS_KM})`);

export const BROKER_SORTS = ["name", "rating", "reviews", "distance", "relevance"] as const;
export type BrokerSort = (typeof BROKER_SORTS)[number];

export const brokerSortParam = z
  .enum(BROKER_SORTS, { error: said(`must be one of ${BROKER_SORTS.join(", ")}`, `doit être l’une des valeurs ${BROKER_SORTS.join(", ")}`) })
  .optional()
  .default("name")
  .describe(
    "Order: name (default, alphabetical), rating (highest average first, then most reviewed), reviews (most reviewed first), " +
      "distance (nearest office first; needs near), relevance (best text match first, name before description; needs q). Ties go alphabetical.",
  );

/** A folded text filter matched against one of a broker's list values (languages, specialties). */
const foldedText = (what: string, fold: (text: string) => string) =>
  z
    .string()
    .max(60, { error: said("must be at most 60 characters", "doit compter au plus 60 caractères") })
    .transform((value) => (blank(value) ? undefined : fold(value)))
    .optional()
    .describe(`${what}; case and accents ignored`);

export const languageParam = foldedText("Only brokers who serve clients in this language: its English or French name or code (French, français, fr)", languageKey);
export const specialtyParam = foldedText("Only brokers with this specialty, e.g. Small business", foldText);

export const minRatingParam = decimalParam(0, 5)
  .optional()
  .describe("Only brokers whose average rating is at least this (0 to 5, decimals allowed); brokers without reviews have 0");

export const verifiedParam = z
  .preprocess(
    // Query strings say "true"/"false"; tRPC and MCP clients may send the boolean itself.
    (value: boolean | string) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ error: said("must be true or false", "doit être true ou false") }),
  )
  .optional()
  .describe("true: only brokers whose licence was checked with the regulator; false: only those not (yet) checked");

export const BROKER_FACETS = ["province", "city", "insuranceType", "language"] as const;
export type BrokerFacet = (typeof BROKER_FACETS)[number];

export const facetsParam = z
  .string()
  .max(100, { error: said(`must list some of ${BROKER_FACETS.join(", ")}`, `doit énumérer certaines des valeurs ${BROKER_FACETS.join(", ")}`) })
  .transform((value, ctx) => {
    const names = value.split(",").map((n) => n.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(BROKER_FACETS as readonly string[]).includes(n));
    if (unknown.length > 0) {
      const quoted = JSON.stringify(unknown[0]!.slice(0, 40));
      ctx.addIssue({
        code: "custom",
        message: `${quoted} is not a facet; use a comma-separated list of ${BROKER_FACETS.join(", ")}`,
        params: french(`${quoted} n’est pas une facette ; utilisez une liste séparée par des virgules parmi ${BROKER_FACETS.join(", ")}`),
      });
      return z.NEVER;
    }
    return [...new Set(names)] as BrokerFacet[];
  })
  .optional()
  .describe(`Comma-separated facets to count: ${BROKER_FACETS.join(", ")}. Each count is of the brokers matching every other filter.`);

export const facetCountSchema = z.object({ value: z.string(), count: z.number().int() });
export const facetsSchema = z
  .object({
    province: z.array(facetCountSchema).optional(),
    city: z.array(facetCountSchema).optional(),
    insuranceType: z.array(facetCountSchema).optional(),
    language: z.array(facetCountSchema).optional(),
  })
  .describe("Only with facets=…: per facet, {value, count} pairs (most brokers first, at most 50), counting the brokers that match every other filter");
export type FacetCounts = z.infer<typeof facetsSchema>;
