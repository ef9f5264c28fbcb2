/** A point on the Earth, in decimal degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), the usual choice for great-circle distances. */
export const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/** Great-circle distance in kilometres (haversine formula: stable for short distances too). */
export function distanceKm(a: LatLng, b: LatLng): number {
  return haversineKm(a.lat, a.lng, cosOfLatitude(a.lat), b.lat, b.lng, cosOfLatitude(b.lat));
}

/** The cosine of a latitude in degrees, as haversineKm takes it (a search over many offices computes each once). */
export function cosOfLatitude(lat: number): number {
  return Math.cos(lat * RADIANS);
}

/** distanceKm with both latitudes' cosines given: the same arithmetic, so the same result to the last bit. */
export function haversineKm(aLat: number, aLng: number, cosALat: number, bLat: number, bLng: number, cosBLat: number): number {
  return kmOfHaversine(haversine(aLat, aLng, cosALat, bLat, bLng, cosBLat));
}

/**
 * The haversine of the central angle between two points: the costly first half of haversineKm.
 * A search over many offices keeps the smallest per broker and converts only that one with
 * kmOfHaversine, which never decreases as its argument grows (sqrt, asin and a positive scale
 * each keep order, a unit test checks it), so the km of the smallest is the smallest km.
 */
export function haversine(aLat: number, aLng: number, cosALat: number, bLat: number, bLng: number, cosBLat: number): number {
  const dLat = (bLat - aLat) * RADIANS;
  const dLng = (bLng - aLng) * RADIANS;
  return Math.sin(dLat / 2) ** 2 + cosALat * cosBLat * Math.sin(dLng / 2) ** 2;
}

/** Kilometres from a haversine (the second half of haversineKm). */
export function kmOfHaversine(h: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A point as a unit vector on the sphere. The straight-line (chord) distance between two such
 * vectors grows with the great-circle distance, and its square needs no trigonometry:
 * a near search measures thousands of offices with three subtractions and three products each.
 */
export function unitVector(lat: number, lng: number): [x: number, y: number, z: number] {
  const cosLat = Math.cos(lat * RADIANS);
  return [cosLat * Math.cos(lng * RADIANS), cosLat * Math.sin(lng * RADIANS), Math.sin(lat * RADIANS)];
}

/** The squared chord (unit sphere) of a great-circle distance in km, as chord2 measures it. */
export function chord2OfKm(km: number): number {
  const chord = 2 * Math.sin(Math.min(Math.PI / 2, km / (2 * EARTH_RADIUS_KM)));
  return chord * chord;
}

/** Kilometres from a squared chord: the haversine of the angle is a quarter of it (sin²(θ/2) = (chord/2)²). */
export function kmOfChord2(chord2: number): number {
  return kmOfHaversine(chord2 / 4);
}

/**
 * The latitude and longitude spans that contain every point within `radiusKm` of `centre`:
 * a cheap first test before the exact distance (longitude degrees shrink toward the poles).
 */
export function boundingBox(centre: LatLng, radiusKm: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = radiusKm / 111.0;
  const cosLat = Math.cos(centre.lat * RADIANS);
  const dLng = cosLat < 0.01 ? 360 : radiusKm / (111.32 * cosLat);
  return { minLat: centre.lat - dLat, maxLat: centre.lat + dLat, minLng: centre.lng - dLng, maxLng: centre.lng + dLng };
}

/** Kilometres to one decimal, as list items show them. */
export function roundKm(km: number): number {
  return Math.round(km * 10) / 10;
}
