import { z } from "zod";
import { hasControlCharacters } from "../domain/text.ts";
import { said } from "./frenchMessages.ts";

/**
 * The one rule for text the API stores and later shows (key names, people's names, notes):
 * no control characters (hasControlCharacters, src/domain/text.ts), so nothing stored can drive a terminal that lists
 * it (erase rows, write the clipboard) or reorder what a reader sees. A name or label is one
 * line; `"lines"` lets free text keep its tabs and line breaks. The issue names the field, 422.
 */
export function withoutControls<T extends z.ZodString>(schema: T, allow: "none" | "lines" = "none"): T {
  return schema.refine((text) => !hasControlCharacters(text, allow), {
    error:
      allow === "lines"
        ? said(
            "must not contain control characters (escape sequences, bidirectional overrides); line breaks and tabs are fine",
            "ne doit pas contenir de caractères de contrôle (séquences d’échappement, forçages bidirectionnels) ; les sauts de ligne et les tabulations sont acceptés",
          )
        : said(
            "must be one line of text without control characters (line breaks, tabs, escape sequences, bidirectional overrides)",
            "doit être une seule ligne de texte sans caractères de contrôle (sauts de ligne, tabulations, séquences d’échappement, forçages bidirectionnels)",
          ),
  }) as T;
}

/** Optional text: null and "" (or only spaces) mean absent. */
export const optionalText = <T extends z.ZodType<string | undefined>>(schema: T) =>
  z.preprocess((value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value), schema.optional());
