import { css, html, nothing, type TemplateResult } from "lit";
import { formatDate, formatMoney } from "./format.ts";
import type { Lang, Translate } from "./i18n.ts";
import type { CarrierQuote, QuoteResult } from "./types.ts";

/**
 * The quote results: one card per carrier (monthly and annual premium in Canadian dollars,
 * coverage, deductible), the expiry, and the way on to the lead step. Carrier names and
 * coverage labels come from the API and are rendered as text.
 */
export interface QuoteResultsView {
  t: Translate;
  lang: Lang;
  result: QuoteResult;
  onContact: (quote?: CarrierQuote) => void;
  onEdit: () => void;
  /** The lead form when open; its button is hidden then. */
  lead: TemplateResult | undefined;
}

export const quoteResultsStyles = css`
      .quotes {
        list-style: none;
        margin: 0.75rem 0 0;
        padding: 0;
        display: grid;
        gap: 0.75rem;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr));
      }
      .quote {
        display: flex;
        flex-direction: column;
        gap: 0.25rem;
        height: 100%;
        padding: 0.875rem;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
      }
      .quote h3 {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .price {
        font-size: 1.5rem;
        font-weight: 700;
        margin: 0;
      }
      .price span {
        font-size: 1rem;
        font-weight: 400;
      }
      dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0 0.75rem;
        margin: 0.25rem 0 0.5rem;
      }
      dt {
        color: var(--_muted);
      }
      dd {
        margin: 0;
      }
      .quote button {
        margin-top: auto;
      }
`;

export function renderQuoteResults({ t, lang, result, onContact, onEdit, lead }: QuoteResultsView) {
  return html`<section part="results" aria-labelledby="results">
    <h2 id="results" tabindex="-1">${t("yourQuotes")}</h2>
    <p class="muted">${t("validUntil", { date: formatDate(lang, result.expiresAt, true) })}</p>
    ${result.quotes.length === 0
      ? html`<p class="notice" part="empty">${t("noQuotes")}</p>`
      : html`<ol class="quotes">
          ${result.quotes.map(
            (quote) => html`<li>
              <article class="quote" part="quote">
                <h3>${quote.carrier}</h3>
                <p class="price">${formatMoney(lang, quote.monthlyPremium)}<span>${t("perMonth")}</span></p>
                <p class="muted">${t("perYear", { amount: formatMoney(lang, quote.annualPremium) })}</p>
                <dl>
                  <dt>${t("coverage")}</dt>
                  <dd>${quote.coverage}</dd>
                  <dt>${t("deductible")}</dt>
                  <dd>${formatMoney(lang, quote.deductible)}</dd>
                </dl>
                <button class="secondary" part="button" @click=${() => onContact(quote)}>${t("contactAbout")}</button>
              </article>
            </li>`,
          )}
        </ol>`}
    <div class="actions">
      ${lead ? nothing : html`<button part="button" @click=${() => onContact()}>${t("contactMe")}</button>`}
      <button class="secondary" part="button" @click=${onEdit}>${t("changeDetails")}</button>
    </div>
    ${lead ?? nothing}
  </section>`;
}
