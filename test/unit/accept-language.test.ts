import { expect, test } from "bun:test";
import { preferredLanguage } from "../../src/adapters/http/acceptLanguage.ts";

test.each([
  [null, "en"],
  ["", "en"],
  ["fr", "fr"],
  ["FR-ca", "fr"],
  ["fr-CA,fr;q=0.9,en;q=0.8", "fr"],
  ["en-CA,en;q=0.9,fr;q=0.8", "en"],
  ["en, fr", "en"],
  ["fr, en", "fr"],
  ["en;q=0.5, fr;q=0.6", "fr"],
  ["fr;q=0.1, en", "en"],
  ["fr;q=0", "en"],
  ["de, fr;q=0.5", "fr"],
  ["*", "en"],
  ["*;q=0.5, fr;q=0.6", "fr"],
  ["fr;q=high", "en"],
  ["fr;q=1.5", "en"],
  [" fr ; q = 0.7 , en ; q=0.6", "fr"],
  ["french", "en"],
  [",,;;==", "en"],
] as const)("Accept-Language %p → %s", (header, language) => {
  expect(preferredLanguage(header)).toBe(language);
});

test("a header of any size is read in one pass over its first ranges", () => {
  expect(preferredLanguage(`${"de;q=0.9,".repeat(100_000)}fr`)).toBe("en"); // French comes past the ranges read
  expect(preferredLanguage(`fr;q=0.5,${"x".repeat(1_000_000)}`)).toBe("fr");
});
