import { LANGUAGES, type Language } from "../../schemas/language.ts";

/** A q-value as RFC 9110 writes it (0, 0.5, 1.000…): anchored, no nested repeats, so linear. */
const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
/** Ranges read at most: a header longer than any browser sends is not read further. */
const MAX_RANGES = 32;

/**
 * The language to answer in, from an Accept-Language header (RFC 9110 §12.5.4): the supported
 * language of highest weight (`fr-CA;q=0.9, en;q=0.8` → fr; `en, fr` → en; `fr;q=0` → never
 * fr), the first listed among equals, English when nothing supported is asked for. One pass
 * over at most MAX_RANGES ranges: linear in the header, whatever a client sends.
 */
export function preferredLanguage(header: string | null | undefined): Language {
  if (!header) return "en";
  let best: Language = "en";
  let bestWeight = 0;
  const ranges = header.split(",", MAX_RANGES);
  for (const range of ranges) {
    const [tag = "", ...params] = range.split(";");
    const primary = tag.trim().toLowerCase().split("-", 1)[0]!;
    const language = primary === "*" ? "en" : LANGUAGES.find((l) => l === primary);
    if (language === undefined) continue;
    const weight = weightOf(params);
    if (weight > bestWeight) {
      best = language;
      bestWeight = weight;
    }
  }
  return best;
}

/** A range's q parameter (1 when absent); a malformed one counts as 0, so the range is ignored. */
function weightOf(params: readonly string[]): number {
  for (const param of params) {
    const [name = "", value = ""] = param.split("=", 2);
    if (name.trim().toLowerCase() !== "q") continue;
    const q = value.trim();
    return Q_VALUE.test(q) ? Number(q) : 0;
  }
  return 1;
}
