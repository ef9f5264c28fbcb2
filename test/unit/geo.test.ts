import { expect, test } from "bun:test";
import { boundingBox, distanceKm, haversine, haversineKm, kmOfHaversine, roundKm } from "../../src/domain/geo/distance.ts";
import { fsaCentroid, fsaCount } from "../../src/domain/geo/fsaCentroids.ts";
import { parseNear } from "../../src/domain/geo/nearPoint.ts";
import { languageKey } from "../../src/domain/languages.ts";

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

test("the bounding box holds every point within the radius (north, south, east, west)", () => {
  const box = boundingBox(MONTREAL, 50);
  for (const bearing of [0, 90, 180, 270]) {
    const rad = (bearing * Math.PI) / 180;
    const point = { lat: MONTREAL.lat + (49.9 / 111.0) * Math.cos(rad), lng: MONTREAL.lng + (49.9 / (111.32 * Math.cos((MONTREAL.lat * Math.PI) / 180))) * Math.sin(rad) };
    expect(point.lat >= box.minLat && point.lat <= box.maxLat && point.lng >= box.minLng && point.lng <= box.maxLng).toBe(true);
  }
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
