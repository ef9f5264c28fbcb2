import type { QuoteDetails } from "../quotes/details.ts";
import { formatWholeDollars } from "./money.ts";
import { band, type LineRating } from "./lineRating.ts";

const LIFE_POLICY_FEE = 60;
const LIFE_TERM = { 10: 0.75, 20: 1.0, 30: 1.4 } as const;

/**
 * Term life: a $60 policy fee plus a rate per $1,000 of coverage that grows 8.5 % a year of
 * age from $0.30 at 25, ×2.4 for smokers, scaled by the term. Province and region do not
 * matter for life.
 */
export function rateLife(details: QuoteDetails<"life">): LineRating {
  const ratePerThousand = 0.3 * 1.085 ** (details.age - 25);
  const annual = LIFE_POLICY_FEE + (details.coverageAmount / 1000) * ratePerThousand * (details.smoker ? 2.4 : 1) * LIFE_TERM[details.termYears];
  const benefit = `${formatWholeDollars(details.coverageAmount)} death benefit, ${details.termYears}-year level term`;
  return { annual, deductible: 0, coverage: { standard: benefit, enhanced: `${benefit}, convertible to permanent, waiver of premium` } };
}

const TRAVEL_POLICY_FEE = 10;
// Dollars per traveller per day, by age: medical risk rises steeply after 65.
const TRAVEL_DAILY: readonly (readonly [number, number])[] = [[17, 1.0], [39, 2.0], [54, 2.75], [64, 4.5], [74, 7.5]];
// Care in the United States costs far more; within Canada provincial plans pay most of it.
const TRAVEL_DESTINATION = { canada: 0.45, usa: 1.6, world: 1.0 } as const;

/**
 * Travel (single trip): a $10 fee plus a daily rate per traveller by age, scaled by the
 * destination. The "annual" premium of a travel quote is the price of the trip's policy.
 */
export function rateTravel(details: QuoteDetails<"travel">): LineRating {
  const perDay = details.travellerAges.reduce((sum, age) => sum + band(age, TRAVEL_DAILY, 14), 0);
  const annual = TRAVEL_POLICY_FEE + details.tripDays * perDay * TRAVEL_DESTINATION[details.destination];
  return {
    annual,
    deductible: 0,
    coverage: {
      standard: `Emergency medical ${formatWholeDollars(5_000_000)}, trip interruption`,
      enhanced: `Emergency medical ${formatWholeDollars(10_000_000)}, trip cancellation and interruption, baggage`,
    },
  };
}
