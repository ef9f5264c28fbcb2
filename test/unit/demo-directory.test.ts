import { expect, test } from "bun:test";
import { generateDirectory } from "../../src/demo/generateDirectory.ts";
import { normalizePostalCode, postalCodeBelongsTo } from "../../src/domain/postalCode.ts";
import { PROVINCES, type ProvinceCode } from "../../src/domain/provinces.ts";
import { DEMO_DIRECTORY } from "../../src/demo/ensureDemoData.ts";

const demo = [...generateDirectory(DEMO_DIRECTORY)];

test("the same seed gives the same directory", () => {
  const again = [...generateDirectory(DEMO_DIRECTORY)];
  expect(JSON.stringify(again)).toBe(JSON.stringify(demo));
  const other = [...generateDirectory({ ...DEMO_DIRECTORY, seed: 1 })];
  expect(JSON.stringify(other)).not.toBe(JSON.stringify(demo));
});

test("at least 250 published brokers in all 13 provinces and territories, the large markets largest", () => {
  const published = demo.filter((b) => b.broker.published);
  expect(published.length).toBeGreaterThanOrEqual(250);
  expect(demo.some((b) => !b.broker.published)).toBe(true);
  const perProvince = new Map<string, number>();
  for (const b of published) perProvince.set(b.broker.province, (perProvince.get(b.broker.province) ?? 0) + 1);
  expect(perProvince.size).toBe(13);
  const small = Math.max(...["MB", "SK", "NS", "NB", "NL", "PE", "NT", "YT", "NU"].map((p) => perProvince.get(p) ?? 0));
  for (const big of ["ON", "QC", "BC", "AB"]) expect(perProvince.get(big)!).toBeGreaterThan(small);
});

test("offices have real postal codes of their province; some brokers span provinces", () => {
  for (const { locations } of demo) {
    for (const l of locations) {
      expect(normalizePostalCode(l.postalCode)).toBe(l.postalCode);
      expect(postalCodeBelongsTo(l.postalCode, l.province as ProvinceCode)).toBe(true);
      expect(PROVINCES.find((p) => p.code === l.province)).toBeDefined();
    }
  }
  expect(demo.some(({ locations }) => new Set(locations.map((l) => l.province)).size > 1)).toBe(true);
});

test("some Québec brokers describe themselves in French; there are 3,000+ reviews rated 1 to 5", () => {
  expect(demo.some((b) => b.broker.province === "QC" && /courtage|assurance habitation|accompagne/.test(b.broker.description))).toBe(true);
  const reviews = demo.flatMap((b) => b.reviews);
  expect(reviews.length).toBeGreaterThanOrEqual(3000);
  expect(new Set(reviews.map((r) => r.rating))).toEqual(new Set([1, 2, 3, 4, 5]));
});
