/**
 * The two built-in palettes. Kept as data (not only CSS) so test/widget/palette.test.ts can
 * check every text/background pair against WCAG AA (4.5:1 text, 3:1 borders and stars).
 * Each colour can be overridden by the page through the matching --bw-* custom property.
 */
export interface Palette {
  bg: string;
  fg: string;
  muted: string;
  surface: string;
  border: string;
  accent: string;
  accentFg: string;
  error: string;
  star: string;
}

export const LIGHT: Palette = {
  bg: "#ffffff",
  fg: "#1b1f24",
  muted: "#4f5864",
  surface: "#f3f5f7",
  border: "#767f8a",
  accent: "#0a58a8",
  accentFg: "#ffffff",
  error: "#b42318",
  star: "#a85f00",
};

export const DARK: Palette = {
  bg: "#15181c",
  fg: "#e9ecef",
  muted: "#aab3bd",
  surface: "#20252b",
  border: "#7d8792",
  accent: "#7ab8ff",
  accentFg: "#0b1220",
  error: "#ff9b8f",
  star: "#f2b53a",
};

/** Palette key → the public custom property that overrides it. */
export const CUSTOM_PROPERTIES: Record<keyof Palette, string> = {
  bg: "--bw-bg",
  fg: "--bw-fg",
  muted: "--bw-muted",
  surface: "--bw-surface",
  border: "--bw-border",
  accent: "--bw-accent",
  accentFg: "--bw-accent-fg",
  error: "--bw-error",
  star: "--bw-star",
};

/** `--_bg: var(--bw-bg, #fff); …` — private variables the stylesheet uses everywhere. */
export function paletteDeclarations(palette: Palette): string {
  return (Object.keys(palette) as (keyof Palette)[])
    .map((key) => `--_${key}:var(${CUSTOM_PROPERTIES[key]},${palette[key]});`)
    .join("");
}
