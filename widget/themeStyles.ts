import { css, unsafeCSS } from "lit";
import { DARK, LIGHT, paletteDeclarations } from "./palette.ts";

// unsafeCSS is fine here: the input is our own constant palette, never page or API data.
/** The light palette's custom properties, for a :host rule. */
export const lightPalette = unsafeCSS(paletteDeclarations(LIGHT));
const darkPalette = unsafeCSS(paletteDeclarations(DARK));

/**
 * theme="dark", and theme="auto" under a dark system setting: the dark palette. The media query
 * makes "auto" follow the visitor's system setting live, without any script. Shared by the
 * widgets and the console.
 */
export const themeSwitch = css`
  :host([theme="dark"]) {
    ${darkPalette}
    color-scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :host([theme="auto"]) {
      ${darkPalette}
      color-scheme: dark;
    }
  }
`;
