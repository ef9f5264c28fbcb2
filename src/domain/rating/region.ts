/**
 * Where in its province a postal code lies, from its forward sortation area (first three
 * characters). A 0 in second position marks a rural FSA (Canada Post's convention); a few
 * FSA prefixes and two whole letters (M = Toronto, H = Montréal) are the big metro areas.
 */
export type Region = "metro" | "urban" | "rural";

const METRO_LETTERS = new Set(["M", "H"]);
// Calgary, Edmonton, Vancouver, Ottawa, the Toronto suburbs (Peel, York), Winnipeg, Québec City.
const METRO_PREFIXES = new Set(["T2", "T3", "T5", "T6", "V5", "V6", "K1", "K2", "L4", "L5", "L6", "R2", "R3", "G1", "G2"]);

/** Region of a normalised postal code ("M5V 3L9" → metro, "K0A 1A0" → rural). */
export function regionOf(postalCode: string): Region {
  if (postalCode[1] === "0") return "rural";
  if (METRO_LETTERS.has(postalCode[0] ?? "") || METRO_PREFIXES.has(postalCode.slice(0, 2))) return "metro";
  return "urban";
}
