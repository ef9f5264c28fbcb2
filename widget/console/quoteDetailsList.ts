import { html } from "lit";
import { quoteFields, toQuoteLine, type FieldRule } from "../fields.ts";
import { formatMoney, formatNumber } from "../format.ts";
import { isMessageKey, translator, type Lang, type Translate } from "../i18n.ts";

/** Fields that hold dollars (the rest are counts, years or ages). */
const MONEY = new Set(["replacementCost", "contentsValue", "coverageAmount", "deductible"]);
/** Fields that are a number of years ("20 years"), not a year (2021). */
const YEARS = new Set(["termYears", "yearsLicensed"]);

/**
 * What the visitor entered for a quote (its `details`), as a definition list in the console's
 * language, with the quote form's own labels (widget/i18n.ts): the fields in the form's order,
 * then any field the form does not know, under its own name. Values are text, never markup.
 */
export function quoteDetailsList(lang: Lang, insuranceLine: string, details: Record<string, unknown>) {
  const t = translator(lang);
  const line = toQuoteLine(insuranceLine);
  const rules: readonly FieldRule[] = line ? quoteFields()[line] : [];
  const known = rules.map((rule) => rule.name).filter((name) => name in details);
  const others = Object.keys(details).filter((name) => !known.includes(name));
  const label = (name: string) => {
    const key = `field.${name}`;
    return isMessageKey(key) ? t(key) : name;
  };
  return html`<dl class="details">${[...known, ...others].map(
    (name) => html`<dt>${label(name)}</dt><dd>${detailValue(t, lang, name, details[name])}</dd>`,
  )}</dl>`;
}

function detailValue(t: Translate, lang: Lang, name: string, value: unknown): string {
  if (typeof value === "boolean") return t(value ? "yes" : "no");
  if (typeof value === "number") {
    if (MONEY.has(name)) return formatMoney(lang, value);
    if (YEARS.has(name)) return t("years", { n: value });
    // Model years and years built read better without a thousands separator.
    return name.startsWith("year") || name.endsWith("Year") ? String(value) : formatNumber(lang, value);
  }
  if (typeof value === "string") {
    const key = `option.${value}`;
    return isMessageKey(key) ? t(key) : value;
  }
  if (Array.isArray(value)) return value.map((item) => detailValue(t, lang, name, item)).join(", ");
  return value === null || value === undefined ? "" : JSON.stringify(value);
}
