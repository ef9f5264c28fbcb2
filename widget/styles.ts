import { css } from "lit";
import { lightPalette, themeSwitch } from "./themeStyles.ts";

/**
 * Shared look of every widget. theme="auto" follows prefers-color-scheme through a media
 * query, so it switches live with the visitor's system setting without any script.
 */
export const baseStyles = css`
  :host {
    ${lightPalette}
    --_radius: var(--bw-radius, 10px);
    display: block;
    box-sizing: border-box;
    max-width: 100%;
    padding: var(--bw-padding, 1rem);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_fg);
    font-family: var(--bw-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
    font-size: var(--bw-font-size, 1rem);
    line-height: 1.5;
    color-scheme: light;
    text-align: start;
  }
  ${themeSwitch}
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h2,
  h3,
  h4 {
    margin: 0 0 0.5rem;
    line-height: 1.25;
  }
  h2 {
    font-size: 1.25rem;
  }
  h3 {
    font-size: 1.0625rem;
  }
  p {
    margin: 0 0 0.5rem;
  }
  a {
    color: var(--_accent);
  }
  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  button {
    font: inherit;
    min-height: 44px;
    padding: 0.5rem 1rem;
    border-radius: calc(var(--_radius) * 0.6);
    border: 2px solid var(--_accent);
    background: var(--_accent);
    color: var(--_accentFg);
    font-weight: 600;
    cursor: pointer;
  }
  button.secondary {
    background: transparent;
    color: var(--_accent);
  }
  button[disabled] {
    opacity: 0.7;
    cursor: progress;
  }
  input,
  select,
  textarea {
    font: inherit;
    width: 100%;
    min-height: 44px;
    padding: 0.45rem 0.6rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.6);
    background: var(--_bg);
    color: var(--_fg);
  }
  [aria-invalid="true"] {
    border: 2px solid var(--_error);
  }
  .field {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    min-width: 0;
  }
  .field label {
    font-weight: 600;
  }
  .hint,
  .muted {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .error {
    color: var(--_error);
    font-size: 0.875rem;
    font-weight: 600;
    margin: 0;
  }
  .grid {
    display: grid;
    gap: 0.75rem 1rem;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr));
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 1rem;
  }
  .notice {
    padding: 0.75rem 1rem;
    border-radius: calc(var(--_radius) * 0.6);
    border-inline-start: 4px solid var(--_accent);
    background: var(--_surface);
  }
  .notice.problem {
    border-inline-start-color: var(--_error);
  }
  .notice p:last-child {
    margin-bottom: 0;
  }
  .stars {
    color: var(--_star);
    letter-spacing: 0.05em;
    white-space: nowrap;
  }
  .stars .off {
    color: var(--_border);
  }
  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .chips li {
    padding: 0.05rem 0.5rem;
    border-radius: 999px;
    border: 1px solid var(--_border);
    font-size: 0.8125rem;
  }
  .badge {
    display: inline-block;
    margin-inline-start: 0.375rem;
    padding: 0 0.4rem;
    border-radius: 999px;
    border: 1px solid var(--_accent);
    color: var(--_accent);
    font-size: 0.75rem;
    font-weight: 600;
  }
  .photo {
    width: 56px;
    height: 56px;
    border-radius: 50%;
    object-fit: cover;
    flex: none;
    background: var(--_surface);
  }
`;
