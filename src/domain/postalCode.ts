import type { ProvinceCode } from "./provinces.ts";
import { provinceByCode } from "./provinces.ts";

// Letter-digit-letter digit-letter-digit; D, F, I, O, Q and U never appear, W and Z never lead.
const POSTAL_CODE = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;

// X is shared by two territories: X0A, X0B and X0C are Nunavut, the rest the Northwest Territories.
const NUNAVUT_FSAS = new Set(["X0A", "X0B", "X0C"]);

/** "m5v3l9" or "M5V 3L9" → "M5V 3L9"; undefined when it is not a Canadian postal code. */
export function normalizePostalCode(input: string): string | undefined {
  const match = POSTAL_CODE.exec(input.trim().toUpperCase());
  return match ? `${match[1]} ${match[2]}` : undefined;
}

/** Whether a normalised postal code lies in the province (by its first letter, or FSA for X). */
export function postalCodeBelongsTo(postalCode: string, province: ProvinceCode): boolean {
  const first = postalCode[0] ?? "";
  if (first === "X") {
    const nunavut = NUNAVUT_FSAS.has(postalCode.slice(0, 3));
    return province === (nunavut ? "NU" : "NT");
  }
  return provinceByCode(province).postalFirstLetters.includes(first);
}

export const POSTAL_CODE_FORMAT_MESSAGE =
  "must be a Canadian postal code like A1A 1A1 (letter digit letter, digit letter digit; the space is optional)";
export const POSTAL_CODE_FORMAT_MESSAGE_FR =
  "doit être un code postal canadien comme A1A 1A1 (lettre chiffre lettre, chiffre lettre chiffre ; l’espace est facultatif)";
