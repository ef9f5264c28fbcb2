/**
 * Money is integer cents inside the engine and dollars with two decimals at the edges.
 *
 * The rounding rule: half away from zero, on integer cents.
 * - annual: the engine's dollar figure × 100, rounded half away from zero → annualCents;
 * - monthly: annualCents / 12, rounded half away from zero, in integer arithmetic → monthlyCents.
 * So `monthlyPremium === round(annualPremium / 12, 2)` holds exactly, with no float drift.
 */

/** Rounds to the nearest integer, halves away from zero (2.5 → 3, -2.5 → -3). */
export function roundHalfAwayFromZero(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * Dollars → cents. The dollar figure is first rounded to 6 decimals so that a product of
 * factors landing a hair under a half cent (1234.565 stored as 1234.56499999…) still rounds
 * the way the decimal figure reads.
 */
export function dollarsToCents(dollars: number): number {
  return roundHalfAwayFromZero(Number((dollars * 100).toFixed(6)));
}

/** A year of cents spread over twelve months, rounded half away from zero. */
export function monthlyCentsOf(annualCents: number): number {
  if (!Number.isSafeInteger(annualCents)) throw new RangeError("annualCents must be a safe integer");
  const sign = annualCents < 0 ? -1 : 1;
  const abs = Math.abs(annualCents);
  const whole = Math.floor(abs / 12);
  const rest = abs % 12;
  return sign * (rest * 2 >= 12 ? whole + 1 : whole);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

// Built once: toLocaleString makes a new formatter on every call, a tenth of a quote's CPU.
const CENTS_FORMAT = new Intl.NumberFormat("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const WHOLE_FORMAT = new Intl.NumberFormat("en-CA", { maximumFractionDigits: 0 });

/** "$1,234.50" (en-CA). */
export function formatDollars(cents: number): string {
  const abs = Math.abs(cents);
  const text = CENTS_FORMAT.format(abs / 100);
  return `${cents < 0 ? "-" : ""}$${text}`;
}

/** "$2,000,000" for whole-dollar amounts in coverage labels. */
export function formatWholeDollars(dollars: number): string {
  return `$${WHOLE_FORMAT.format(Math.round(dollars))}`;
}
