// Forward sortation areas (the first three characters of a postal code) and their centroids,
// from the `zipcodes` package (BSD licence; Canadian data from AggData's postal-code sample,
// 1,620 FSAs). Only its Canadian table is imported, so the US table never reaches the bundle.
import { codes } from "zipcodes/lib/codesCanada.js";
import type { ProvinceCode } from "../provinces.ts";
import { provinceOfPostalCode } from "../quotes/postalProvince.ts";
import type { LatLng } from "./distance.ts";

export interface FsaCentroid extends LatLng {
  fsa: string;
  province: ProvinceCode;
  /** The area's name in the data set, e.g. "Downtown Toronto (cn Tower / …)". */
  place: string;
}

interface ZipcodesEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
}

// The province comes from the FSA itself (first letter; X0A–X0C are Nunavut), not from the data
// set's `state`, which names a district instead of the province for a few rows.
const byFsa = new Map<string, FsaCentroid>();
for (const entry of Object.values(codes as Record<string, ZipcodesEntry>)) {
  const province = provinceOfPostalCode(entry.zip.toUpperCase());
  if (!province || !Number.isFinite(entry.latitude) || !Number.isFinite(entry.longitude)) continue;
  byFsa.set(entry.zip.toUpperCase(), { fsa: entry.zip.toUpperCase(), lat: entry.latitude, lng: entry.longitude, province, place: entry.city });
}

/** The centroid of an FSA such as "M5V" (upper case), or undefined when the data set lacks it. */
export function fsaCentroid(fsa: string): FsaCentroid | undefined {
  return byFsa.get(fsa);
}

/** How many FSAs the data set knows (for tests and the manual's API page). */
export function fsaCount(): number {
  return byFsa.size;
}

/** Every FSA the data set knows, e.g. for a benchmark that visits them all. */
export function fsaCodes(): string[] {
  return [...byFsa.keys()];
}
