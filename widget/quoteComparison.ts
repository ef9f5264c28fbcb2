import { css, html } from "lit";
import { formatMoney } from "./format.ts";
import type { Lang, Translate } from "./i18n.ts";
import { priceText } from "./quotePrice.ts";
import type { CarrierQuote } from "./types.ts";

/** How many quotes fit side by side (three columns still read on a phone, scrolled sideways). */
export const MAX_COMPARED = 3;

export const quoteComparisonStyles = css`
  .comparison {
    margin-top: 1rem;
    padding: 0.875rem;
    border: 2px solid var(--_accent);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .comparison .scroll {
    overflow-x: auto;
  }
  .comparison table {
    border-collapse: collapse;
    width: 100%;
    min-width: 18rem;
  }
  .comparison th,
  .comparison td {
    padding: 0.375rem 0.5rem;
    border-bottom: 1px solid var(--_border);
    text-align: start;
    vertical-align: top;
    overflow-wrap: anywhere;
  }
  .comparison thead th {
    font-size: 1rem;
  }
  /* Row labels are single words: never broken inside one. */
  .comparison tbody th {
    overflow-wrap: normal;
    white-space: nowrap;
  }
`;

/**
 * Two or three chosen quotes side by side: one column per carrier, one row per fact (price,
 * coverage, deductible), with the cheapest marked. A real table, so a screen reader names the
 * carrier and the row of every cell.
 */
export function renderComparison(t: Translate, lang: Lang, line: string, quotes: readonly CarrierQuote[], cheapest: string | undefined, onClose: () => void) {
  return html`<section class="comparison" part="comparison" aria-labelledby="comparison-heading">
    <h3 id="comparison-heading" tabindex="-1">${t("comparison")}</h3>
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <td></td>
            ${quotes.map((q) => html`<th scope="col">${q.carrier}${q.carrierSlug === cheapest ? html`<br /><span class="badge">${t("cheapest")}</span>` : ""}</th>`)}
          </tr>
        </thead>
        <tbody>
          <tr><th scope="row">${t("priceLabel")}</th>${quotes.map((q) => html`<td>${priceText(t, lang, line, q)}</td>`)}</tr>
          <tr><th scope="row">${t("coverage")}</th>${quotes.map((q) => html`<td>${q.coverage}</td>`)}</tr>
          <tr><th scope="row">${t("deductible")}</th>${quotes.map((q) => html`<td>${formatMoney(lang, q.deductible)}</td>`)}</tr>
        </tbody>
      </table>
    </div>
    <div class="actions">
      <button type="button" class="secondary" part="button close-comparison" @click=${onClose}>${t("closeComparison")}</button>
    </div>
  </section>`;
}
