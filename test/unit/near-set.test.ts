import { expect, test } from "bun:test";
import { cosOfLatitude, EARTH_RADIUS_KM, haversineKm, kmOfChord2 } from "../../src/domain/geo/distance.ts";
import type { BrokerAttributes } from "../../src/storage/search/brokerAttributes.ts";
import { OfficeGrid } from "../../src/storage/search/officeGrid.ts";
import { nearSet } from "../../src/storage/search/rankSets.ts";
import { seededRandom } from "../support/seededRandom.ts";

test.each([
  ["offices in southern Ontario (tenth-degree cells)", 43, 3, -81, 4],
  ["offices spread over most of the globe (coarser cells)", -70, 140, -179, 358],
  ["offices in the north, where a circle is widest away from its centre's latitude", 55, 12, -120, 40],
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
  for (const radiusKm of [1, 5, 20, 60, 150, 400, 500]) {
    for (let round = 0; round < 5; round++) {
      const centre = { lat: lat0 + next() * latSpan, lng: lng0 + next() * lngSpan };
      // Every office measured: no box or grid decides for the expectation.
      const nearest = new Map<number, number>();
      for (let at = 0; at < officeLat.length; at++) {
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

test("a broker at the circle's eastmost and westmost reach is found (the widest latitude is north of the centre's)", () => {
  // 500 km around 60° N: the circle is widest about 0.6° north of its centre, 9.02° of longitude
  // out, where a box sized at the centre's latitude stops at 8.98°.
  const centre = { lat: 60, lng: -100 };
  const radians = Math.PI / 180;
  const reach = (bearing: number) => {
    const [b, d, lat] = [bearing * radians, 499.9 / EARTH_RADIUS_KM, centre.lat * radians];
    const lat2 = Math.asin(Math.sin(lat) * Math.cos(d) + Math.cos(lat) * Math.sin(d) * Math.cos(b));
    const dLng = Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat), Math.cos(d) - Math.sin(lat) * Math.sin(lat2));
    return { lat: lat2 / radians, lng: centre.lng + dLng / radians };
  };
  let east = reach(90);
  for (let bearing = 60; bearing <= 120; bearing += 0.01) if (reach(bearing).lng > east.lng) east = reach(bearing);
  const west = { lat: east.lat, lng: 2 * centre.lng - east.lng };
  const offices = [centre, east, west];
  const grid = new OfficeGrid(Float64Array.from(offices, (o) => o.lat), Float64Array.from(offices, (o) => o.lng), Int32Array.from([0, 1, 2]));
  const scratch = { best: new Float64Array(3).fill(Number.POSITIVE_INFINITY), touchedBits: new Int32Array(1), touched: new Int32Array(3), distances: new Float64Array(3) };
  const set = nearSet({ grid, nearScratch: () => scratch } as unknown as BrokerAttributes, centre, 500);
  expect(east.lng - centre.lng).toBeGreaterThan(500 / (111.32 * Math.cos(centre.lat * radians)) + 0.03);
  expect(Array.from(set.ranks)).toEqual([0, 1, 2]);
});
