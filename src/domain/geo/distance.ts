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

/** Degrees of slack in capBands' answers: acos is ill-conditioned near 1 (a rounding of 1e-16 moves it by 3e-6°). */
const CAP_MARGIN_DEGREES = 1e-4;

/**
 * The latitude band of the spherical cap of `radiusKm` around `centre` (the points within that
 * great-circle distance), and for any narrower band of latitudes the longitudes it holds there:
 * a near search reads, row by row of its grid, only the cells the circle can reach instead of
 * its bounding box's. `halfWidth(fromLat, toLat)` is the most degrees of longitude from the
 * centre that a point of the cap lying in that band can be: -1 when the band misses the cap,
 * 180 when the cap holds a pole (every longitude). Exact plus a small margin: the cap is widest
 * at the latitude where its edge runs due north (asin(sin φc / cos θ)) and narrows away from it,
 * so within a band it is widest at the band's latitude nearest to that one. (The bounding box this
 * replaced was as wide as the cap at the centre's latitude, a little narrower than the cap: a
 * 500 km search at 60° N missed a sliver 0.04° wide on each side.)
 */
export function capBands(centre: LatLng, radiusKm: number): { fromLat: number; toLat: number; halfWidth(fromLat: number, toLat: number): number } {
  const theta = radiusKm / EARTH_RADIUS_KM;
  const lat = centre.lat * RADIANS;
  const reach = theta / RADIANS + CAP_MARGIN_DEGREES;
  const [fromLat, toLat] = [Math.max(-90, centre.lat - reach), Math.min(90, centre.lat + reach)];
  if (theta >= Math.PI / 2 - Math.abs(lat)) return { fromLat, toLat, halfWidth: (from, to) => (from > toLat || to < fromLat ? -1 : 180) };
  const [sinLat, cosLat, cosTheta] = [Math.sin(lat), Math.cos(lat), Math.cos(theta)];
  const widest = Math.asin(sinLat / cosTheta);
  return {
    fromLat,
    toLat,
    halfWidth(from, to) {
      if (from > toLat || to < fromLat) return -1;
      const at = Math.min(Math.min(to * RADIANS, lat + theta), Math.max(Math.max(from * RADIANS, lat - theta), widest));
      const cosWidth = (cosTheta - Math.sin(at) * sinLat) / (Math.cos(at) * cosLat);
      return Math.acos(Math.min(1, Math.max(-1, cosWidth))) / RADIANS + CAP_MARGIN_DEGREES;
    },
  };
}

/** Kilometres to one decimal, as list items show them. */
export function roundKm(km: number): number {
  return Math.round(km * 10) / 10;
}
