import { expect, test } from "bun:test";
import fc from "fast-check";
import { fnv1a } from "../../src/domain/rating/carrier.ts";

/** The hash as first written: FNV-1a over TextEncoder's bytes. Prices and photo hues depend on it. */
function reference(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

test("the ASCII fast path hashes exactly the UTF-8 bytes, for any text (accents, emoji, lone surrogates)", () => {
  for (const text of ["", "intact-insurance:Auto", "Auto|aviva", "québec", "a😀b", "x\ud800y", "\udc00", "é"]) {
    expect(fnv1a(text)).toBe(reference(text));
  }
  fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => fnv1a(text) === reference(text)), { numRuns: 2_000 });
});

test("known values stay put (a change would reprice every quote)", () => {
  expect(fnv1a("")).toBe(0x811c9dc5);
  expect(fnv1a("a")).toBe(0xe40c292c);
});
