import { describe, expect, test } from "bun:test";
import { DARK, LIGHT, type Palette } from "../../widget/palette.ts";

/** WCAG 2.x relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

// Text pairs need 4.5:1 (AA, normal text); borders, focus rings and stars 3:1 (non-text).
const TEXT: [keyof Palette, keyof Palette][] = [
  ["fg", "bg"],
  ["fg", "surface"],
  ["muted", "bg"],
  ["muted", "surface"],
  ["accent", "bg"],
  ["accent", "surface"],
  ["accentFg", "accent"],
  ["error", "bg"],
  ["error", "surface"],
];
const NON_TEXT: [keyof Palette, keyof Palette][] = [
  ["border", "bg"],
  ["border", "surface"],
  ["star", "bg"],
  ["star", "surface"],
  ["accent", "bg"],
];

for (const [name, palette] of [["light", LIGHT], ["dark", DARK]] as const) {
  describe(`${name} palette meets WCAG AA`, () => {
    for (const [fg, bg] of TEXT) {
      test(`${fg} on ${bg} ≥ 4.5`, () => expect(contrast(palette[fg], palette[bg])).toBeGreaterThanOrEqual(4.5));
    }
    for (const [fg, bg] of NON_TEXT) {
      test(`${fg} against ${bg} ≥ 3`, () => expect(contrast(palette[fg], palette[bg])).toBeGreaterThanOrEqual(3));
    }
  });
}
