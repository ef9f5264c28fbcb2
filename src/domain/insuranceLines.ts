/**
 * The insurance lines the directory knows, the common ones first: a broker offers some of them,
 * a lead names one (src/router/leads/leadSchemas.ts), the console offers them to choose from,
 * and the demo generator draws brokers' lines from them (src/demo/vocabulary.ts weighs each).
 */
export const INSURANCE_LINES = [
  "Auto", "Home", "Tenant", "Condo", "Commercial", "Life", "Travel", "Farm", "Marine", "Pet", "Mortgage", "Real Estate",
];
