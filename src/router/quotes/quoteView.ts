import { LINE_LABELS } from "../../domain/quotes/insuranceTypes.ts";
import { centsToDollars } from "../../domain/rating/money.ts";
import type { StoredQuote } from "../../storage/stores/quoteStore.ts";
import type { QuoteView } from "../../schemas/quote.ts";

/** A stored quote as callers see it, with `expired` judged at `now`. */
export function toQuoteView(quote: StoredQuote, now: number): QuoteView {
  return {
    quoteId: quote.id,
    insuranceType: quote.insuranceType,
    insuranceLine: LINE_LABELS[quote.line],
    province: quote.province,
    postalCode: quote.postalCode,
    details: quote.details,
    currency: "CAD",
    quotes: quote.offers.map((o) => ({
      carrier: o.carrierName,
      carrierSlug: o.carrierSlug,
      monthlyPremium: centsToDollars(o.monthlyCents),
      annualPremium: centsToDollars(o.annualCents),
      coverage: o.coverage,
      deductible: o.deductible,
    })),
    createdAt: new Date(quote.createdAt).toISOString(),
    expiresAt: new Date(quote.expiresAt).toISOString(),
    expired: now >= quote.expiresAt,
  };
}
