import { findProvince } from "./provinces.ts";

/**
 * Client-side twin of src/domain/postalCode.ts (which pulls canada.json and text folding
 * into the bundle if imported). test/widget/rules.test.ts checks both agree on many inputs.
 */
const POSTAL_CODE = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;

// X is shared: X0A, X0B and X0C are Nunavut, every other X code the Northwest Territories.
const NUNAVUT_FSAS = ["X0A", "X0B", "X0C"];

/** "m5v3l9" → "M5V 3L9"; undefined when it is not a Canadian postal code. */
export function normalizePostalCode(input: string): string | undefined {
  const match = POSTAL_CODE.exec(input.trim().toUpperCase());
  return match ? `${match[1]} ${match[2]}` : undefined;
}

/** Whether a normalised postal code lies in the province (first letter, or FSA for X). */
export function postalCodeBelongsTo(postalCode: string, provinceCode: string): boolean {
  const first = postalCode[0] ?? "";
  if (first === "X") {
    return provinceCode === (NUNAVUT_FSAS.includes(postalCode.slice(0, 3)) ? "NU" : "NT");
  }
  return findProvince(provinceCode)?.letters.includes(first) ?? false;
}
