import type { FieldRule } from "./fields.ts";
import { formatNumber } from "./format.ts";
import type { Lang, Translate } from "./i18n.ts";
import { findProvince } from "./provinces.ts";
import { normalizePostalCode, postalCodeBelongsTo } from "./postalCode.ts";

/** The outcome of reading one input: a value to send (undefined = leave out) or a message. */
export type Parsed = { value: unknown; error?: undefined } | { value?: undefined; error: string };

const ok = (value: unknown): Parsed => ({ value });
const fail = (error: string): Parsed => ({ error });

/** "50 000", "50,000" and "50000" are the same whole number; "1,5" is not one. */
function parseWholeNumber(raw: string): number | undefined {
  const compact = raw.replace(/[\s\u00a0\u202f]/g, "");
  const plain = /^\d{1,3}(,\d{3})+$/.test(compact) ? compact.replace(/,/g, "") : compact;
  return /^-?\d+$/.test(plain) ? Number(plain) : undefined;
}

/** Reads one detail field the way the server's zod schema would judge it. */
export function parseField(rule: FieldRule, raw: string, t: Translate, lang: Lang): Parsed {
  const input = raw.trim();
  if (input === "") return rule.required ? fail(t("error.required")) : ok(undefined);
  // Like the server: years read better without a thousands separator, money with one.
  const n = (value: number) => (Math.abs(value) < 10_000 ? String(value) : formatNumber(lang, value));
  switch (rule.kind) {
    case "int": {
      const value = parseWholeNumber(input);
      if (value === undefined) return fail(t("error.int"));
      if (value < rule.min) return fail(t("error.min", { min: n(rule.min) }));
      if (value > rule.max) return fail(t("error.max", { max: n(rule.max) }));
      return ok(value);
    }
    case "text":
      return input.length > rule.maxLength ? fail(t("error.tooLong", { max: rule.maxLength })) : ok(input);
    case "bool":
      return input === "yes" || input === "no" ? ok(input === "yes") : fail(t("error.choice"));
    case "choice": {
      const option = rule.options.find((o) => String(o) === input);
      return option === undefined ? fail(t("error.choice")) : ok(option);
    }
    case "intList": {
      const parts = input.split(/[,;\s]+/).filter(Boolean);
      const ages = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
      if (ages.some(Number.isNaN)) return fail(t("error.list"));
      if (ages.length < rule.minItems || ages.length > rule.maxItems) {
        return fail(t("error.listCount", { min: rule.minItems, max: rule.maxItems }));
      }
      if (ages.some((a) => a < rule.min || a > rule.max)) return fail(t("error.listRange", { min: rule.min, max: rule.max }));
      return ok(ages);
    }
  }
}

/** A postal code checked for format and for belonging to the chosen province. */
export function parsePostalCode(raw: string, provinceCode: string, t: Translate, lang: Lang): Parsed {
  if (raw.trim() === "") return fail(t("error.required"));
  const postal = normalizePostalCode(raw);
  if (!postal) return fail(t("error.postalFormat"));
  const province = findProvince(provinceCode);
  if (province && !postalCodeBelongsTo(postal, province.code)) {
    return fail(t("error.postalProvince", { province: lang === "fr" ? province.fr : province.en }));
  }
  return ok(postal);
}

export function parseRequired(raw: string, t: Translate): Parsed {
  return raw.trim() === "" ? fail(t("error.required")) : ok(raw.trim());
}

export function parseEmail(raw: string, t: Translate): Parsed {
  const email = raw.trim();
  if (email === "") return fail(t("error.required"));
  // Dot-separated labels after the @ (linear: `[^\s@]+\.[^\s@]+` could split a long domain anywhere).
  return /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(email) ? ok(email) : fail(t("error.email"));
}

/** At least a Canadian number's ten digits; the server normalises it to E.164. */
export function parsePhone(raw: string, t: Translate): Parsed {
  const phone = raw.trim();
  if (phone === "") return fail(t("error.required"));
  const digits = phone.replace(/\D/g, "");
  return digits.length >= 10 && digits.length <= 15 ? ok(phone) : fail(t("error.phone"));
}
