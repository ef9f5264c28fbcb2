/** A point on the Earth, in decimal degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), the usual choice for great-circle distances. */
const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/** Great-circle distance in kilometres (haversine formula: stable for short distances too). */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RADIANS;
  const dLng = (b.lng - a.lng) * RADIANS;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RADIANS) * Math.cos(b.lat * RADIANS) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
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
