/**
 * The details a quote needs, one shape per insurance line the rating engine prices: plain
 * types, so the domain stays free of any validation library. Their one validation is the zod
 * schema in src/schemas/quoteDetails.ts, which the compiler holds to exactly these shapes (both
 * ways: a field added on one side only is a type error there). The choices below are declared
 * here once and the schema offers exactly them.
 */
export const QUOTE_LINES = ["auto", "home", "condo", "tenant", "life", "travel"] as const;
export type QuoteLine = (typeof QUOTE_LINES)[number];

export const DEDUCTIBLES = [500, 1000, 2500, 5000] as const;
export type Deductible = (typeof DEDUCTIBLES)[number];
export const PROPERTY_TYPES = ["detached", "semi-detached", "townhouse", "mobile"] as const;
export const LIFE_TERMS = [10, 20, 30] as const;
export const TRAVEL_DESTINATIONS = ["canada", "usa", "world"] as const;

export interface QuoteDetailsByLine {
  auto: {
    vehicleYear: number;
    vehicleMake: string;
    vehicleModel: string;
    driverAge: number;
    cleanRecord: boolean;
    yearsLicensed?: number | undefined;
    annualKm?: number | undefined;
    deductible?: Deductible | undefined;
  };
  home: {
    propertyType: (typeof PROPERTY_TYPES)[number];
    yearBuilt: number;
    replacementCost: number;
    claimsLast5Years: number;
    deductible?: Deductible | undefined;
  };
  condo: { yearBuilt: number; contentsValue: number; claimsLast5Years: number; deductible?: Deductible | undefined };
  tenant: { contentsValue: number; claimsLast5Years: number; deductible?: Deductible | undefined };
  life: { age: number; smoker: boolean; coverageAmount: number; termYears: (typeof LIFE_TERMS)[number] };
  travel: { tripDays: number; travellerAges: number[]; destination: (typeof TRAVEL_DESTINATIONS)[number] };
}

export type QuoteDetails<L extends QuoteLine> = QuoteDetailsByLine[L];
