import { localeOf, type Lang } from "./i18n.ts";

/** Canadian dollars in the reader's language: "$1,234.50" / "1 234,50 $"; whole amounts drop the cents. */
export function formatMoney(lang: Lang, amount: number): string {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(localeOf(lang), {
    style: "currency",
    currency: "CAD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amount);
}

export function formatNumber(lang: Lang, value: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits }).format(value);
}

/** A calendar date ("March 4, 2026" / "4 mars 2026"); invalid input comes back unchanged. */
export function formatDate(lang: Lang, iso: string, withTime = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), withTime ? { dateStyle: "long", timeStyle: "short" } : { dateStyle: "long" }).format(date);
}

/** A distance in kilometres, one decimal at most: "2.3 km" / "2,3 km". */
export function formatDistance(lang: Lang, km: number): string {
  return new Intl.NumberFormat(localeOf(lang), { style: "unit", unit: "kilometer", maximumFractionDigits: 1 }).format(km);
}

/** A North American E.164 number as Canadians write it ("+14165550100" → "416-555-0100"); any other text unchanged. */
export function formatPhone(e164: string): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : e164;
}
