import canada from "./canada.json" with { type: "json" };
import { foldText } from "./text.ts";

/** The thirteen provinces and territories, by their two-letter postal code. */
export const PROVINCE_CODES = [
  "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
] as const;
export type ProvinceCode = (typeof PROVINCE_CODES)[number];

export interface Province {
  code: ProvinceCode;
  en: string;
  fr: string;
  postalFirstLetters: string[];
}

export const PROVINCES: readonly Province[] = canada.provinces.map((p) => ({
  code: p.code as ProvinceCode,
  en: p.en,
  fr: p.fr,
  postalFirstLetters: p.postalFirstLetters,
}));

const byCode = new Map(PROVINCES.map((p) => [p.code, p]));

/** Every accepted spelling, folded (case and accents ignored), to its code. */
const byFoldedName = new Map<string, ProvinceCode>();
for (const p of PROVINCES) {
  for (const form of [p.code, p.en, p.fr]) byFoldedName.set(foldText(form), p.code);
  // Hyphens and spaces are interchangeable: "Colombie Britannique", "Prince-Edward-Island".
  for (const form of [p.en, p.fr]) byFoldedName.set(foldText(form.replace(/-/g, " ")), p.code);
}
// Common short forms people type.
byFoldedName.set("pei", "PE");
byFoldedName.set("newfoundland", "NL");
byFoldedName.set("yukon territory", "YT");

/**
 * Resolves a province or territory written as a two-letter code (on, ON), its English name
 * (Ontario, british columbia) or its French name (Québec, Colombie-Britannique), ignoring case
 * and accents. Returns undefined for anything else.
 */
export function resolveProvince(input: string): ProvinceCode | undefined {
  return byFoldedName.get(foldText(input.replace(/-/g, " "))) ?? byFoldedName.get(foldText(input));
}

export function provinceByCode(code: ProvinceCode): Province {
  const province = byCode.get(code);
  if (!province) throw new Error(`unknown province code ${code}`);
  return province;
}

/** The message a caller sees when a province value is not recognised. */
export function unknownProvinceMessage(value: string): string {
  return (
    `"${value.slice(0, 60)}" is not a Canadian province or territory. ` +
    `Use a two-letter code (${PROVINCE_CODES.join(", ")}), ` +
    `the English name (e.g. Ontario, British Columbia) or the French name (e.g. Québec, Colombie-Britannique); case and accents are ignored.`
  );
}

/** The same in French (for a request that asks for French). */
export function unknownProvinceMessageFr(value: string): string {
  return (
    `« ${value.slice(0, 60)} » n’est pas une province ni un territoire du Canada. ` +
    `Utilisez un code de deux lettres (${PROVINCE_CODES.join(", ")}), ` +
    `le nom anglais (p. ex. Ontario, British Columbia) ou le nom français (p. ex. Québec, Colombie-Britannique) ; la casse et les accents sont ignorés.`
  );
}
