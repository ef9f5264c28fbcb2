import { css } from "lit";
import { lightPalette, themeSwitch } from "../themeStyles.ts";

/**
 * The console's palette lives on <bd-console> only (the widget's palettes, WCAG AA checked in
 * test/widget/palette.test.ts); the page elements inside inherit its --_* variables.
 */
export const appStyles = css`
  :host {
    ${lightPalette}
    display: block;
    min-height: 100vh;
    background: var(--_surface);
    color: var(--_fg);
    color-scheme: light;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
    line-height: 1.5;
  }
  ${themeSwitch}
`;

/** What every console element shares: controls, tables, dialogs, notices. */
export const pageStyles = css`
  :host {
    display: block;
    --_radius: 8px;
  }
  *, *::before, *::after { box-sizing: border-box; }
  h1, h2, h3 { line-height: 1.25; margin: 0 0 0.75rem; }
  h1 { font-size: 1.5rem; }
  h2 { font-size: 1.2rem; }
  p { margin: 0 0 0.75rem; }
  a { color: var(--_accent); }
  :focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
  .sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  button, .button {
    font: inherit; font-weight: 600; min-height: 40px; padding: 0.4rem 0.9rem; cursor: pointer;
    border-radius: var(--_radius); border: 2px solid var(--_accent); background: var(--_accent); color: var(--_accentFg);
    text-decoration: none; display: inline-flex; align-items: center;
  }
  button.secondary, .button.secondary { background: transparent; color: var(--_accent); }
  button.danger { background: transparent; color: var(--_error); border-color: var(--_error); }
  button[disabled] { opacity: 0.6; cursor: not-allowed; }
  input, select, textarea {
    font: inherit; min-height: 40px; padding: 0.35rem 0.55rem; border: 1px solid var(--_border);
    border-radius: var(--_radius); background: var(--_bg); color: var(--_fg); max-width: 100%;
  }
  textarea { width: 100%; }
  [aria-invalid="true"] { border: 2px solid var(--_error); }
  .field { display: flex; flex-direction: column; gap: 0.25rem; margin-bottom: 0.9rem; }
  .field > label, legend { font-weight: 600; }
  fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.5rem 0.75rem; margin: 0 0 0.9rem; }
  .hint, .muted { color: var(--_muted); font-size: 0.875rem; }
  .error { color: var(--_error); font-weight: 600; font-size: 0.875rem; margin: 0; }
  .card { background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 1rem 1.25rem; margin-bottom: 1rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
  .notice { padding: 0.75rem 1rem; border-radius: var(--_radius); border-inline-start: 4px solid var(--_accent); background: var(--_bg); margin-bottom: 1rem; }
  .notice.problem { border-inline-start-color: var(--_error); }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; background: var(--_bg); }
  caption { text-align: start; font-weight: 600; padding: 0.5rem 0; }
  th, td { text-align: start; padding: 0.5rem 0.6rem; border-bottom: 1px solid var(--_border); vertical-align: top; }
  th { font-size: 0.875rem; color: var(--_muted); }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; word-break: break-all; }
  td code { white-space: nowrap; word-break: normal; }
  .badge { display: inline-block; padding: 0 0.5rem; border-radius: 999px; border: 1px solid var(--_border); font-size: 0.8125rem; white-space: nowrap; }
  .badge.active, .badge.won { border-color: var(--_accent); color: var(--_accent); }
  .badge.revoked, .badge.expired, .badge.lost { border-color: var(--_error); color: var(--_error); }
  dialog { border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_bg); color: var(--_fg); padding: 1.25rem 1.5rem; max-width: min(36rem, 94vw); width: 100%; }
  dialog::backdrop { background: rgb(0 0 0 / 0.5); }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 1rem; }
  /* The operator's forms: as many columns as fit, one on a phone (375 px). */
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); gap: 0 1rem; }
  .grid input:not([type=checkbox]):not([type=radio]), .grid select { width: 100%; }
  input[type=checkbox], input[type=radio] { min-height: auto; width: 1.25rem; height: 1.25rem; }
  .checks { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
  /* A field on a line of its own, as wide as a long URL needs, never wider than the screen. */
  label.wide { display: block; margin-bottom: 0.5rem; }
  label.wide input { display: block; width: min(100%, 40rem); }
  .check, .checks label { display: inline-flex; gap: 0.4rem; align-items: center; min-height: 40px; }
  .field.check { justify-content: end; }
  .badge.published { border-color: var(--_accent); color: var(--_accent); }
  .badge.unpublished, .badge.hidden { border-color: var(--_error); color: var(--_error); }
  ol.plain { list-style: none; margin: 0; padding: 0; }
  progress { width: 100%; height: 1.25rem; }
  blockquote { margin: 0 0 0.5rem; padding-inline-start: 0.75rem; border-inline-start: 3px solid var(--_border); white-space: pre-wrap; overflow-wrap: anywhere; }
  .row.spread { justify-content: space-between; align-items: center; margin-bottom: 1rem; }
  .toggle { display: inline-flex; gap: 0.4rem; align-items: center; }
  .toggle input { min-height: auto; }
  fieldset.choices label { display: inline-flex; gap: 0.3rem; align-items: center; margin-inline-end: 1rem; }
  fieldset.choices input { min-height: auto; }
  dialog.wide { max-width: min(52rem, 94vw); }
  section + section, .actions + section { margin-top: 1rem; }
  .preview { border: 1px dashed var(--_border); border-radius: var(--_radius); padding: 0.5rem; min-height: 8rem; }
  dl.details { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
  dl.details dt { color: var(--_muted); }
  dl.details dd { margin: 0; }
  /*
   * Phones (issue 29: owners check leads on theirs): a table.stack becomes one card per row,
   * each cell on its own line after its column's name (data-label), and nothing is wider than
   * the screen. The column headers stay in the accessibility tree (clipped, not hidden).
   */
  @media (max-width: 40rem) {
    table.stack, table.stack tbody, table.stack tr, table.stack th, table.stack td { display: block; width: 100%; }
    table.stack caption { display: block; }
    .card { padding: 0.75rem; }
    table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.stack tr { border: 1px solid var(--_border); border-radius: var(--_radius); margin-bottom: 0.75rem; padding: 0.25rem 0; }
    table.stack th, table.stack td { border-bottom: 0; padding: 0.2rem 0.75rem; }
    table.stack tbody th { font-size: 1rem; color: var(--_fg); }
    table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--_muted); font-size: 0.875rem; }
    table.stack td code { white-space: normal; word-break: break-all; }
    dl.details { grid-template-columns: 1fr; }
    dl.details dd { margin-bottom: 0.4rem; }
    dialog { padding: 1rem; }
  }
`;
