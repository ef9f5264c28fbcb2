import { expect, test } from "bun:test";
import { boundingBox, cosOfLatitude, haversineKm } from "../../src/domain/geo/distance.ts";
import type { BrokerAttributes } from "../../src/storage/brokerAttributes.ts";
import { OfficeGrid } from "../../src/storage/officeGrid.ts";
import { nearSet } from "../../src/storage/rankSets.ts";
import { seededRandom } from "../support/seededRandom.ts";

test("nearSet gives every broker measuring each office in the box would, with the same nearest distance to the bit", () => {
  const next = seededRandom(5);
  const n = 3_000;
  const lat: number[] = [];
  const lng: number[] = [];
  const rank: number[] = [];
  for (let r = 0; r < n; r++) {
    for (let k = Math.floor(next() * 3); k >= 0; k--) {
      lat.push(43 + next() * 3);
      lng.push(-81 + next() * 4);
      rank.push(r);
    }
  }
  const officeLat = Float64Array.from(lat);
  const officeLng = Float64Array.from(lng);
  const officeCos = Float64Array.from(lat, cosOfLatitude);
  const grid = new OfficeGrid(officeLat, officeLng, officeCos, Int32Array.from(rank));
  const scratch = {
    best: new Float64Array(n).fill(Number.POSITIVE_INFINITY),
    touchedBits: new Int32Array(Math.ceil(n / 32)),
    touched: new Int32Array(n),
    distances: new Float64Array(n),
  };
  const attributes = { grid, nearScratch: () => scratch } as unknown as BrokerAttributes;
  // Small radii (few touched ranks) and large ones (most), ranks 31 and 32 apart on one bit word's edges.
  for (const radiusKm of [1, 5, 20, 60, 150, 400]) {
    for (let round = 0; round < 5; round++) {
      const centre = { lat: 43 + next() * 3, lng: -81 + next() * 4 };
      const box = boundingBox(centre, radiusKm);
      const nearest = new Map<number, number>();
      for (let at = 0; at < officeLat.length; at++) {
        if (officeLat[at]! < box.minLat || officeLat[at]! > box.maxLat || officeLng[at]! < box.minLng || officeLng[at]! > box.maxLng) continue;
        const km = haversineKm(centre.lat, centre.lng, cosOfLatitude(centre.lat), officeLat[at]!, officeLng[at]!, officeCos[at]!);
        if (km <= radiusKm && km < (nearest.get(rank[at]!) ?? Number.POSITIVE_INFINITY)) nearest.set(rank[at]!, km);
      }
      const expected = [...nearest].sort((a, b) => a[0] - b[0]);
      const set = nearSet(attributes, centre, radiusKm);
      expect(Array.from(set.ranks)).toEqual(expected.map(([r]) => r));
      expect(Array.from(set.values!)).toEqual(expected.map(([, km]) => km));
      // The scratch space is left clean for the next search.
      expect(scratch.best.every((value) => value === Number.POSITIVE_INFINITY)).toBe(true);
      expect(scratch.touchedBits.every((word) => word === 0)).toBe(true);
    }
  }
});
