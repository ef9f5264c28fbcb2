import { expect, test } from "bun:test";
import { boundingBox, cosOfLatitude, haversineKm, kmOfChord2 } from "../../src/domain/geo/distance.ts";
import type { BrokerAttributes } from "../../src/storage/brokerAttributes.ts";
import { OfficeGrid } from "../../src/storage/officeGrid.ts";
import { nearSet } from "../../src/storage/rankSets.ts";
import { seededRandom } from "../support/seededRandom.ts";

test.each([
  ["offices in southern Ontario (tenth-degree cells)", 43, 3, -81, 4],
  ["offices spread over most of the globe (coarser cells)", -70, 140, -179, 358],
] as const)("nearSet gives every broker measuring each office with the haversine would, with its nearest distance: %s", (_, lat0, latSpan, lng0, lngSpan) => {
  const next = seededRandom(5);
  const n = 3_000;
  const lat: number[] = [];
  const lng: number[] = [];
  const rank: number[] = [];
  for (let r = 0; r < n; r++) {
    for (let k = Math.floor(next() * 3); k >= 0; k--) {
      lat.push(lat0 + next() * latSpan);
      lng.push(lng0 + next() * lngSpan);
      rank.push(r);
    }
  }
  const officeLat = Float64Array.from(lat);
  const officeLng = Float64Array.from(lng);
  const officeCos = Float64Array.from(lat, cosOfLatitude);
  const grid = new OfficeGrid(officeLat, officeLng, Int32Array.from(rank));
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
      const centre = { lat: lat0 + next() * latSpan, lng: lng0 + next() * lngSpan };
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
      // The set holds squared chords; in km they are the haversine's to a micrometre.
      Array.from(set.values!).forEach((chord2, i) => expect(Math.abs(kmOfChord2(chord2) - expected[i]![1])).toBeLessThan(1e-9));
      // The scratch space is left clean for the next search.
      expect(scratch.best.every((value) => value === Number.POSITIVE_INFINITY)).toBe(true);
      expect(scratch.touchedBits.every((word) => word === 0)).toBe(true);
    }
  }
});
