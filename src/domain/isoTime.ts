/**
 * `new Date(ms).toISOString()`, byte for byte, for the instants the read path writes on every
 * answer (a review page's eight dates, a detail's two): from integers, without a Date object.
 * 115 ns against 280 ns in process. Outside years 0–9999 (where toISOString writes a sign and
 * six digits) and for a time that is not an integer it hands over to toISOString, as it does
 * for values toISOString refuses (its RangeError is kept).
 *
 * @example
 * isoTime(Date.UTC(2026, 10, 26, 9, 5, 3, 7)) // "2026-11-26T09:05:03.007Z"
 */
export function isoTime(ms: number): string {
  if (!(ms >= MIN_FAST && ms <= MAX_FAST) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1_000);
  const millis = rest - seconds * 1_000;
  // The proleptic Gregorian date of a day count (Howard Hinnant's civil_from_days), in
  // 400-year eras counted from 0000-03-01 so that a leap day ends each year.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year >= 1_000 ? year : String(year).padStart(4, "0")}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}Z`;
}

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the years toISOString writes with four digits. */
const MIN_FAST = -62_167_219_200_000;
const MAX_FAST = 253_402_300_799_999;

const padded = (count: number, width: number) => Array.from({ length: count }, (_, n) => String(n).padStart(width, "0"));
const TWO_DIGITS = padded(100, 2);
const THREE_DIGITS = padded(1_000, 3);
