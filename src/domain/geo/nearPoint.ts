import { normalizePostalCode } from "../postalCode.ts";
import type { ProvinceCode } from "../provinces.ts";
import type { LatLng } from "./distance.ts";
import { fsaCentroid } from "./fsaCentroids.ts";

/** Where "near" points: coordinates, and the province when it was given as a postal code. */
export interface NearPoint extends LatLng {
  province?: ProvinceCode;
  /** The FSA the point came from, when it came from a postal code. */
  fsa?: string;
}

const FSA = /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]$/;
// Anchored, no nested quantifiers: linear time on any input.
const LAT_LNG = /^(-?\d{1,3}(?:\.\d{1,8})?)\s*,\s*(-?\d{1,3}(?:\.\d{1,8})?)$/;

export const NEAR_FORMAT_MESSAGE =
  "must be a Canadian postal code (M5V 3L9), its first three characters (M5V), or latitude,longitude in degrees (43.65,-79.38)";
export const NEAR_FORMAT_MESSAGE_FR =
  "doit être un code postal canadien (M5V 3L9), ses trois premiers caractères (M5V) ou latitude,longitude en degrés (43.65,-79.38)";

/**
 * Reads a `near` value: a full postal code or an FSA (any case, space optional) becomes the
 * FSA's centroid; "lat,lng" is taken as it is. An FSA the data set does not know is refused by
 * name rather than guessed at.
 */
export function parseNear(text: string): { ok: true; point: NearPoint } | { ok: false; message: string; fr: string } {
  const input = text.trim();
  const coordinates = LAT_LNG.exec(input);
  if (coordinates) {
    const lat = Number(coordinates[1]);
    const lng = Number(coordinates[2]);
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      return {
        ok: false,
        message: `latitude must be from -90 to 90 and longitude from -180 to 180 (got ${lat},${lng})`,
        fr: `la latitude doit être de -90 à 90 et la longitude de -180 à 180 (reçu : ${lat},${lng})`,
      };
    }
    return { ok: true, point: { lat, lng } };
  }
  const compact = input.toUpperCase().replace(/\s+/g, "");
  const fsa = FSA.test(compact) ? compact : normalizePostalCode(compact)?.slice(0, 3);
  if (!fsa) return { ok: false, message: `${NEAR_FORMAT_MESSAGE} (got ${JSON.stringify(input.slice(0, 40))})`, fr: `${NEAR_FORMAT_MESSAGE_FR} (reçu : ${JSON.stringify(input.slice(0, 40))})` };
  const centroid = fsaCentroid(fsa);
  if (!centroid) {
    return {
      ok: false,
      message: `the forward sortation area ${fsa} is not in our postal-code data; try a neighbouring area or latitude,longitude`,
      fr: `la région de tri d’acheminement ${fsa} n’est pas dans nos données de codes postaux ; essayez une région voisine ou latitude,longitude`,
    };
  }
  return { ok: true, point: { lat: centroid.lat, lng: centroid.lng, province: centroid.province, fsa } };
}
