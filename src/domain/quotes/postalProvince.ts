import { postalCodeBelongsTo } from "../postalCode.ts";
import { PROVINCES, type ProvinceCode } from "../provinces.ts";

/** The province or territory a normalised postal code belongs to (by first letter, FSA for X). */
export function provinceOfPostalCode(postalCode: string): ProvinceCode | undefined {
  return PROVINCES.find((p) => postalCodeBelongsTo(postalCode, p.code))?.code;
}

/** Why a postal code does not fit the province, naming where it does belong. */
export function postalCodeMismatchMessage(postalCode: string, province: ProvinceCode): string {
  const actual = PROVINCES.find((p) => p.code === provinceOfPostalCode(postalCode));
  const stated = PROVINCES.find((p) => p.code === province);
  const where = actual ? `${actual.en} (${actual.code})` : "another province";
  return `${postalCode} is a postal code of ${where}, not of ${stated?.en ?? province} (${province}). Check the postal code or the province.`;
}

/** The same in French. */
export function postalCodeMismatchMessageFr(postalCode: string, province: ProvinceCode): string {
  const actual = PROVINCES.find((p) => p.code === provinceOfPostalCode(postalCode));
  const stated = PROVINCES.find((p) => p.code === province);
  const where = actual ? `${actual.fr} (${actual.code})` : "une autre province";
  return `${postalCode} est un code postal de : ${where}, pas de : ${stated?.fr ?? province} (${province}). Vérifiez le code postal ou la province.`;
}
