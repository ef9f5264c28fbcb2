import { expect, test } from "bun:test";
import { capBands, distanceKm, EARTH_RADIUS_KM, haversine, haversineKm, kmOfHaversine, roundKm } from "../../src/domain/geo/distance.ts";
import { fsaCentroid, fsaCount } from "../../src/domain/geo/fsaCentroids.ts";
import { parseNear } from "../../src/domain/geo/nearPoint.ts";
import { languageKey } from "../../src/domain/languages.ts";
import { seededRandom } from "../support/seededRandom.ts";

const TORONTO = { lat: 43.6532, lng: -79.3832 };
const MONTREAL = { lat: 45.5019, lng: -73.5674 };
const VANCOUVER = { lat: 49.2827, lng: -123.1207 };
const CALGARY = { lat: 51.0447, lng: -114.0719 };
const HALIFAX = { lat: 44.6488, lng: -63.5752 };

test.each([
  ["Toronto–Montréal", TORONTO, MONTREAL, 504],
  ["Vancouver–Calgary", VANCOUVER, CALGARY, 675],
  ["Toronto–Halifax", TORONTO, HALIFAX, 1_265],
] as const)("haversine %s ≈ %d km", (_, a, b, km) => {
  expect(Math.abs(distanceKm(a, b) - km)).toBeLessThan(3);
  expect(distanceKm(a, b)).toBeCloseTo(distanceKm(b, a), 9);
});

test("a point is 0 km from itself; distances round to one decimal", () => {
  expect(distanceKm(TORONTO, TORONTO)).toBe(0);
  expect(roundKm(2.349)).toBe(2.3);
  expect(roundKm(2.35)).toBe(2.4);
});

/** The point `km` from `from` on the initial bearing `degrees` (the great-circle destination). */
function destination(from: { lat: number; lng: number }, degrees: number, km: number): { lat: number; lng: number } {
  const [rad, delta, lat] = [(degrees * Math.PI) / 180, km / EARTH_RADIUS_KM, (from.lat * Math.PI) / 180];
  const lat2 = Math.asin(Math.sin(lat) * Math.cos(delta) + Math.cos(lat) * Math.sin(delta) * Math.cos(rad));
  const dLng = Math.atan2(Math.sin(rad) * Math.sin(delta) * Math.cos(lat), Math.cos(delta) - Math.sin(lat) * Math.sin(lat2));
  return { lat: (lat2 * 180) / Math.PI, lng: from.lng + (dLng * 180) / Math.PI };
}

test("capBands: every point within the radius lies in its band's longitudes, and the bands are no wider than the circle", () => {
  const next = seededRandom(17);
  for (let round = 0; round < 120; round++) {
    const centre = { lat: -85 + next() * 170, lng: -170 + next() * 340 };
    const radiusKm = [1, 5, 25, 100, 500, 3_000][round % 6]!;
    const band = [0.1, 0.25, 1][round % 3]!;
    const cap = capBands(centre, radiusKm);
    const offsetOf = (point: { lng: number }) => Math.abs(((point.lng - centre.lng + 540) % 360) - 180);
    for (let i = 0; i < 400; i++) {
      // Points inside (random) and on the edge (every 1.8° of bearing).
      const point = i < 200 ? destination(centre, next() * 360, next() * radiusKm) : destination(centre, (i - 200) * 1.8, radiusKm);
      const south = Math.floor(point.lat / band) * band;
      expect(point.lat >= cap.fromLat && point.lat <= cap.toLat).toBe(true);
      expect(offsetOf(point)).toBeLessThanOrEqual(cap.halfWidth(south, south + band));
    }
    // Tight where the cap holds no pole: its widest is the edge's widest (bearings every 0.05°) plus the margin.
    const widest = cap.halfWidth(cap.fromLat, cap.toLat);
    if (widest < 180) {
      let edge = 0;
      for (let bearing = 0; bearing < 360; bearing += 0.05) edge = Math.max(edge, offsetOf(destination(centre, bearing, radiusKm)));
      expect(widest - edge).toBeLessThan(1.5e-4);
    }
    expect(cap.halfWidth(cap.toLat + 1, cap.toLat + 2)).toBe(-1);
  }
});

test("capBands reaches further east and west than a box sized at the centre's latitude (500 km at 60° N)", () => {
  const cap = capBands({ lat: 60, lng: -100 }, 500);
  const boxHalfWidth = 500 / (111.32 * Math.cos((60 * Math.PI) / 180));
  const widestBand = cap.halfWidth(cap.fromLat, cap.toLat);
  expect(widestBand - boxHalfWidth).toBeGreaterThan(0.03);
  // And the edge point due east of the widest latitude is really within 500 km.
  const east = destination({ lat: 60, lng: -100 }, 90, 499.9);
  expect(distanceKm({ lat: 60, lng: -100 }, east)).toBeLessThan(500);
});

test("FSA centroids: real areas with their province, from the FSA's own letter", () => {
  expect(fsaCount()).toBeGreaterThan(1_600);
  expect(fsaCentroid("M5V")).toMatchObject({ province: "ON" });
  expect(distanceKm(fsaCentroid("M5V")!, TORONTO)).toBeLessThan(5);
  expect(distanceKm(fsaCentroid("H2X")!, MONTREAL)).toBeLessThan(5);
  expect(fsaCentroid("X0A")?.province).toBe("NU");
  expect(fsaCentroid("X1A")?.province).toBe("NT");
  expect(fsaCentroid("ZZZ")).toBeUndefined();
});

test.each(["M5V 3L9", "m5v3l9", "M5V", " m5v ", "m5v 3l9"])("near %p is the M5V centroid in Ontario", (text) => {
  const parsed = parseNear(text);
  expect(parsed).toEqual({ ok: true, point: expect.objectContaining({ fsa: "M5V", province: "ON" }) });
});

test("near as latitude,longitude, and its bounds", () => {
  expect(parseNear("43.65,-79.38")).toEqual({ ok: true, point: { lat: 43.65, lng: -79.38 } });
  expect(parseNear("45.5 , -73.57")).toEqual({ ok: true, point: { lat: 45.5, lng: -73.57 } });
  expect(parseNear("91,0")).toMatchObject({ ok: false, message: expect.stringContaining("latitude must be from -90 to 90") });
});

test.each(["XYZ", "D5V", "M5", "12345", "M5V 3L", "M5V3L9X", "", "43.6,", "a".repeat(60)])("near %p is refused with the accepted forms", (text) => {
  expect(parseNear(text)).toMatchObject({ ok: false });
});

test("an FSA missing from the data set is named", () => {
  expect(parseNear("W0W")).toMatchObject({ ok: false }); // W never leads a postal code
  const unknown = parseNear("V0N"); // a row of the source data without coordinates
  expect(unknown).toMatchObject({ ok: false, message: expect.stringContaining("V0N is not in our postal-code data") });
});

test("language names, French names and codes fold to one key", () => {
  for (const text of ["French", "fr", "Français", "FRANCAIS", "french "]) expect(languageKey(text)).toBe("french");
  expect(languageKey("Punjabi")).toBe(languageKey("pa"));
  expect(languageKey("Klingon")).toBe("klingon");
});

test("kilometres never decrease as the haversine grows, so a broker's smallest haversine is its nearest office", () => {
  const view = new DataView(new ArrayBuffer(8));
  const nextUp = (x: number) => {
    view.setFloat64(0, x);
    view.setBigUint64(0, view.getBigUint64(0) + 1n);
    return view.getFloat64(0);
  };
  // Dense runs of adjacent doubles across the range searches use (0 to 500 km and beyond).
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let run = 0; run < 2_000; run++) {
    let h = random() ** 4 * 0.01;
    for (let step = 0; step < 200; step++) {
      const next = nextUp(h);
      expect(kmOfHaversine(next)).toBeGreaterThanOrEqual(kmOfHaversine(h));
      h = next;
    }
  }
  expect(kmOfHaversine(1.5)).toBe(kmOfHaversine(1));
  // The two halves are haversineKm to the last bit.
  const cos = (lat: number) => Math.cos((lat * Math.PI) / 180);
  const halves = kmOfHaversine(haversine(TORONTO.lat, TORONTO.lng, cos(TORONTO.lat), MONTREAL.lat, MONTREAL.lng, cos(MONTREAL.lat)));
  expect(halves).toBe(haversineKm(TORONTO.lat, TORONTO.lng, cos(TORONTO.lat), MONTREAL.lat, MONTREAL.lng, cos(MONTREAL.lat)));
});
