import { formatMoney } from "./format.ts";
import type { Lang, Translate } from "./i18n.ts";
import type { CarrierQuote } from "./types.ts";

/**
 * How a quote's price reads. A travel policy covers one trip: its "annual" premium is the
 * trip's price (the manual's quotes section), so it shows once, "for the trip" — never per
 * month or per year. Every other line: per month, with the year beside it.
 */
export interface PriceView {
  main: string;
  unit: string;
  /** The yearly amount, for lines paid by the month; undefined for a trip. */
  secondary: string | undefined;
}

export const isTripLine = (line: string) => line === "Travel";

export function priceView(t: Translate, lang: Lang, line: string, quote: CarrierQuote): PriceView {
  if (isTripLine(line)) return { main: formatMoney(lang, quote.annualPremium), unit: t("forTheTrip"), secondary: undefined };
  return { main: formatMoney(lang, quote.monthlyPremium), unit: t("perMonth"), secondary: t("perYear", { amount: formatMoney(lang, quote.annualPremium) }) };
}

/** The price in one line of text ("$480 for the trip", "$40/month"), for notes and table cells. */
export function priceText(t: Translate, lang: Lang, line: string, quote: CarrierQuote): string {
  const view = priceView(t, lang, line, quote);
  return `${view.main}${view.unit}`;
}

/** The carrierSlug of the cheapest offer (the lowest price for the period the visitor pays), if any. */
export function cheapestOf(quotes: readonly CarrierQuote[]): string | undefined {
  let best: CarrierQuote | undefined;
  for (const quote of quotes) if (!best || quote.annualPremium < best.annualPremium) best = quote;
  return best?.carrierSlug;
}
