import type { RankLists } from "./rankLists.ts";

/**
 * An office's place (province and city) as one number: city × 16 + province (13 provinces and
 * territories fit in 4 bits), so a broker's offices are a list of numbers that can be grouped by
 * content (see rankCombos) like its lines and languages.
 */
const PROVINCE_BITS = 4;

/** Each rank's offices as places, in slot order. */
export function officePlaces(officeStart: Int32Array, officeProvince: Uint8Array, officeCity: Int32Array): RankLists {
  const values = new Int32Array(officeCity.length);
  for (let slot = 0; slot < values.length; slot++) values[slot] = officeCity[slot]! * (1 << PROVINCE_BITS) + officeProvince[slot]!;
  return { start: officeStart, values };
}

export function provinceOfPlace(place: number): number {
  return place & ((1 << PROVINCE_BITS) - 1);
}

export function cityOfPlace(place: number): number {
  return place >>> PROVINCE_BITS;
}
