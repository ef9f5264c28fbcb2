import { distanceKm, type LatLng } from "../../domain/geo/distance.ts";
import type { BrokerDetail } from "../../schemas/broker.ts";

/**
 * The office a near search measured to: a card that says "2.3 km away" must name that office's
 * city, not the primary office's (issue 29: "London, ON · 2.3 km away" on a Toronto search).
 * The index keeps only the distance; with at most a page of brokers, measuring their few
 * offices again here costs less than carrying an office id through both dialects' indexes.
 */
export function nearestOffice(broker: BrokerDetail | undefined, from: LatLng): { city: string; province: string } | undefined {
  let best: { city: string; province: string; km: number } | undefined;
  for (const office of broker?.locations ?? []) {
    if (office.latitude === null || office.longitude === null) continue;
    const km = distanceKm(from, { lat: office.latitude, lng: office.longitude });
    if (!best || km < best.km) best = { city: office.city, province: office.province, km };
  }
  return best && { city: best.city, province: best.province };
}
