import { z } from "zod";
import { resolveProvince, unknownProvinceMessage, unknownProvinceMessageFr } from "../domain/provinces.ts";
import { french, said } from "./frenchMessages.ts";
import { foldText } from "../domain/text.ts";

/** Empty text parameters (`?city=`) mean "no filter", like absent ones. */
const blankToUndefined = (value: string) => (value.trim() === "" ? undefined : value.trim());

export const provinceFilter = z
  .string()
  .max(60, { error: said("must be a province or territory name or code (at most 60 characters)", "doit être le nom ou le code d’une province ou d’un territoire (60 caractères au plus)") })
  .transform((value, ctx) => {
    const text = blankToUndefined(value);
    if (text === undefined) return undefined;
    const code = resolveProvince(text);
    if (!code) {
      ctx.addIssue({ code: "custom", message: unknownProvinceMessage(text), params: french(unknownProvinceMessageFr(text)) });
      return z.NEVER;
    }
    return code;
  })
  .optional()
  .describe(
    "Province or territory: two-letter code (ON), English name (Ontario) or French name (Québec); case and accents ignored",
  );

export const cityFilter = z
  .string()
  .max(100, { error: said("must be at most 100 characters", "doit compter au plus 100 caractères") })
  .transform((value) => {
    const text = blankToUndefined(value);
    return text === undefined ? undefined : foldText(text);
  })
  .optional()
  .describe("City name; case and accents ignored (Montreal matches Montréal)");

export const insuranceTypeFilter = z
  .string()
  .max(60, { error: said("must be at most 60 characters", "doit compter au plus 60 caractères") })
  .transform((value) => {
    const text = blankToUndefined(value);
    return text === undefined ? undefined : foldText(text);
  })
  .optional()
  .describe("Insurance line the broker offers, e.g. Auto, Home, Commercial, Life, Travel; case-insensitive");

export const MAX_QUERY_LENGTH = 2_000;

export const textQuery = z
  .string()
  .max(MAX_QUERY_LENGTH, {
    error: said(`must be at most ${MAX_QUERY_LENGTH.toLocaleString("en-CA")} characters`, `doit compter au plus ${MAX_QUERY_LENGTH.toLocaleString("fr-CA")} caractères`),
  })
  .transform(blankToUndefined)
  .optional()
  .describe("Words to find in the broker's name or description; case and accents ignored, last word matches as a prefix");
