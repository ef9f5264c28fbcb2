import type { QuoteDetails } from "../quotes/details.ts";
import type { ProvinceCode } from "../provinces.ts";
import { formatWholeDollars } from "./money.ts";
import { band, claimsFactor, DEFAULT_DEDUCTIBLE, type LineRating, type RatingContext } from "./lineRating.ts";

/** Provincial level of property premiums (Alberta hail, northern distances, Atlantic calm). */
const PROPERTY_PROVINCE: Record<ProvinceCode, number> = {
  AB: 1.3, BC: 1.1, MB: 1.1, SK: 1.15, ON: 1.1, QC: 0.95, NB: 0.85,
  NS: 0.9, PE: 0.85, NL: 0.95, YT: 1.25, NT: 1.3, NU: 1.4,
};
// Rural homes are far from a fire hall and a hydrant.
const PROPERTY_REGION = { metro: 1.05, urban: 1.0, rural: 1.15 } as const;
const PROPERTY_DEDUCTIBLE: Record<number, number> = { 500: 1.1, 1000: 1.0, 2500: 0.88, 5000: 0.78 };
const PROPERTY_TYPE = { detached: 1.0, "semi-detached": 0.93, townhouse: 0.88, mobile: 1.3 } as const;
// Older wiring, plumbing and roofs fail more often.
const HOUSE_AGE: readonly (readonly [number, number])[] = [[9, 0.9], [24, 1.0], [49, 1.1], [99, 1.22]];
const BUILDING_AGE: readonly (readonly [number, number])[] = [[24, 1.0], [49, 1.05]];

const LIABILITY = `personal liability ${formatWholeDollars(1_000_000)}`;

function common(province: ProvinceCode, region: RatingContext["region"], claims: number, deductible: number): number {
  return PROPERTY_PROVINCE[province] * PROPERTY_REGION[region] * claimsFactor(claims) * (PROPERTY_DEDUCTIBLE[deductible] ?? 1);
}

/** Home: $2.60 a year per $1,000 of replacement cost, then the factors. */
export function rateHome(details: QuoteDetails<"home">, { province, region, now }: RatingContext): LineRating {
  const deductible = details.deductible ?? DEFAULT_DEDUCTIBLE;
  const age = now.getUTCFullYear() - details.yearBuilt;
  const annual =
    details.replacementCost * 0.0026 *
    common(province, region, details.claimsLast5Years, deductible) *
    PROPERTY_TYPE[details.propertyType] *
    band(age, HOUSE_AGE, 1.35);
  const dwelling = `Dwelling ${formatWholeDollars(details.replacementCost)} (guaranteed replacement)`;
  return {
    annual,
    deductible,
    coverage: { standard: `${dwelling}, ${LIABILITY}`, enhanced: `${dwelling}, ${LIABILITY}, sewer backup, overland water` },
  };
}

/** Condo unit owner: $180 plus $4.50 per $1,000 of contents, then the factors. */
export function rateCondo(details: QuoteDetails<"condo">, { province, region, now }: RatingContext): LineRating {
  const deductible = details.deductible ?? DEFAULT_DEDUCTIBLE;
  const age = now.getUTCFullYear() - details.yearBuilt;
  const annual =
    (180 + details.contentsValue * 0.0045) *
    common(province, region, details.claimsLast5Years, deductible) *
    band(age, BUILDING_AGE, 1.12);
  const contents = `Contents ${formatWholeDollars(details.contentsValue)}, unit improvements ${formatWholeDollars(50_000)}`;
  return {
    annual,
    deductible,
    coverage: {
      standard: `${contents}, ${LIABILITY}`,
      enhanced: `${contents}, ${LIABILITY}, loss assessment ${formatWholeDollars(50_000)}, sewer backup`,
    },
  };
}

/** Tenant: $90 plus $4 per $1,000 of contents, then the factors. */
export function rateTenant(details: QuoteDetails<"tenant">, { province, region }: RatingContext): LineRating {
  const deductible = details.deductible ?? DEFAULT_DEDUCTIBLE;
  const annual = (90 + details.contentsValue * 0.004) * common(province, region, details.claimsLast5Years, deductible);
  const contents = `Contents ${formatWholeDollars(details.contentsValue)}`;
  return {
    annual,
    deductible,
    coverage: { standard: `${contents}, ${LIABILITY}`, enhanced: `${contents}, ${LIABILITY}, identity theft, sewer backup` },
  };
}
