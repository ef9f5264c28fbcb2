import { expect, test } from "bun:test";
import { normalizePostalCode, postalCodeBelongsTo } from "../../src/domain/postalCode.ts";
import { PROVINCES, resolveProvince } from "../../src/domain/provinces.ts";

test("13 provinces and territories resolve from code, English and French names in any case", () => {
  expect(PROVINCES).toHaveLength(13);
  for (const p of PROVINCES) {
    for (const form of [p.code, p.code.toLowerCase(), p.en, p.en.toUpperCase(), p.fr, p.fr.toLowerCase()]) expect(resolveProvince(form)).toBe(p.code);
  }
});

test("accents and hyphens are optional", () => {
  expect(resolveProvince("Quebec")).toBe("QC");
  expect(resolveProvince("Nouvelle Ecosse")).toBe("NS");
  expect(resolveProvince("ile du prince edouard")).toBe("PE");
  expect(resolveProvince("  Colombie-Britannique ")).toBe("BC");
});

test("anything else is undefined", () => {
  for (const bad of ["", "O", "Ont", "XX", "Canada", "Ontario Province", "Q C"]) expect(resolveProvince(bad)).toBeUndefined();
});

test("postal codes normalise to upper case with one space", () => {
  expect(normalizePostalCode("m5v3l9")).toBe("M5V 3L9");
  expect(normalizePostalCode(" H2X 1Y4 ")).toBe("H2X 1Y4");
  for (const bad of ["M5V-3L9", "12345", "D5V 3L9", "M5V 3L", "W1A 1A1", "M5V  3L9", "M5V 3O9"]) expect(normalizePostalCode(bad)).toBeUndefined();
});

test("the first letter (or FSA for X) must belong to the province", () => {
  expect(postalCodeBelongsTo("M5V 3L9", "ON")).toBe(true);
  expect(postalCodeBelongsTo("M5V 3L9", "QC")).toBe(false);
  expect(postalCodeBelongsTo("H2X 1Y4", "QC")).toBe(true);
  expect(postalCodeBelongsTo("V6B 1A1", "BC")).toBe(true);
  expect(postalCodeBelongsTo("X0A 0H0", "NU")).toBe(true);
  expect(postalCodeBelongsTo("X0A 0H0", "NT")).toBe(false);
  expect(postalCodeBelongsTo("X1A 2P5", "NT")).toBe(true);
});
