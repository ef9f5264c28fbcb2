import type { QuoteDetails, QuoteLine } from "../quotes/details.ts";
import { LINE_LABELS } from "../quotes/insuranceTypes.ts";
import type { ProvinceCode } from "../provinces.ts";
import { rateAuto } from "./autoRating.ts";
import { carrierFactor, carriersWriting, offersEnhancedCoverage, type Carrier } from "./carrier.ts";
import type { LineRating, RatingContext } from "./lineRating.ts";
import { rateLife, rateTravel } from "./lifeTravelRating.ts";
import { dollarsToCents, monthlyCentsOf } from "./money.ts";
import { rateCondo, rateHome, rateTenant } from "./propertyRating.ts";
import { regionOf } from "./region.ts";

/** What is priced: one line, where, and that line's validated details. */
export type RatingRequest = {
  [L in QuoteLine]: { line: L; province: ProvinceCode; postalCode: string; details: QuoteDetails<L> };
}[QuoteLine];

export interface RatedOffer {
  carrierSlug: string;
  carrierName: string;
  annualCents: number;
  monthlyCents: number;
  coverage: string;
  deductible: number;
}

export type RatingResult =
  | { ok: true; offers: RatedOffer[] }
  /** Fewer than MIN_OFFERS carriers write the line there: no comparison is offered. */
  | { ok: false; eligible: Carrier[] };

export const MIN_OFFERS = 3;
export const MAX_OFFERS = 8;
/** The enhanced package costs this much more than the standard one. */
const ENHANCED_LOADING = 1.07;
/** No carrier writes a policy for less than this, whatever the factors say. */
const MINIMUM_ANNUAL: Record<QuoteLine, number> = { auto: 450, home: 350, condo: 180, tenant: 120, life: 120, travel: 20 };

function rateLine(request: RatingRequest, context: RatingContext): LineRating {
  switch (request.line) {
    case "auto": return rateAuto(request.details, context);
    case "home": return rateHome(request.details, context);
    case "condo": return rateCondo(request.details, context);
    case "tenant": return rateTenant(request.details, context);
    case "life": return rateLife(request.details);
    case "travel": return rateTravel(request.details);
  }
}

/**
 * Prices a quote request with every carrier of the catalogue that writes the line in the
 * province, and keeps the cheapest MAX_OFFERS, sorted by monthly premium (then annual, then
 * slug, so ties always fall the same way). Pure: same request, catalogue and `now` → same
 * offers, to the cent.
 */
export function rateQuote(request: RatingRequest, catalogue: readonly Carrier[], now: Date): RatingResult {
  const label = LINE_LABELS[request.line];
  const eligible = carriersWriting(catalogue, label, request.province);
  if (eligible.length < MIN_OFFERS) return { ok: false, eligible };

  const context: RatingContext = { province: request.province, region: regionOf(request.postalCode), now };
  const line = rateLine(request, context);
  const offers = eligible.map((carrier): RatedOffer => {
    const enhanced = offersEnhancedCoverage(carrier.slug, label);
    const dollars = Math.max(
      MINIMUM_ANNUAL[request.line],
      line.annual * carrierFactor(carrier.slug, label) * (enhanced ? ENHANCED_LOADING : 1),
    );
    const annualCents = dollarsToCents(dollars);
    return {
      carrierSlug: carrier.slug,
      carrierName: carrier.name,
      annualCents,
      monthlyCents: monthlyCentsOf(annualCents),
      coverage: enhanced ? line.coverage.enhanced : line.coverage.standard,
      deductible: line.deductible,
    };
  });
  offers.sort(
    (a, b) => a.monthlyCents - b.monthlyCents || a.annualCents - b.annualCents || (a.carrierSlug < b.carrierSlug ? -1 : 1),
  );
  return { ok: true, offers: offers.slice(0, MAX_OFFERS) };
}
