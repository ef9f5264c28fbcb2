import { css, html, nothing, type TemplateResult } from "lit";
import { formatDate, formatMoney } from "./format.ts";
import type { Lang, Translate } from "./i18n.ts";
import { MAX_COMPARED, renderComparison } from "./quoteComparison.ts";
import { cheapestOf, priceView } from "./quotePrice.ts";
import type { CarrierQuote, QuoteResult } from "./types.ts";

/**
 * The quote results: one card per carrier (its price — per month and year, or for the trip —,
 * coverage, deductible), the cheapest marked, a Compare box on each (two or three quotes side
 * by side), the expiry, and the way on to the lead step. Each card's buttons name its carrier,
 * so no two share an accessible name. Carrier names and coverage labels are rendered as text.
 */
export interface QuoteResultsView {
  t: Translate;
  lang: Lang;
  result: QuoteResult;
  onContact: (quote?: CarrierQuote) => void;
  onEdit: () => void;
  /** The lead form when open; its button is hidden then. */
  lead: TemplateResult | undefined;
  /** carrierSlugs ticked for comparison, in the order ticked. */
  compared: readonly string[];
  onToggleCompare: (slug: string) => void;
  /** Whether the side-by-side table is shown. */
  comparing: boolean;
  onCompare: (open: boolean) => void;
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
      .quote.cheapest {
        border: 2px solid var(--_accent);
      }
      .compare-box {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        min-height: 32px;
      }
      .compare-box input {
        width: 1.25rem;
        min-height: 1.25rem;
        margin: 0;
      }
`;

export function renderQuoteResults(view: QuoteResultsView) {
  const { t, lang, result, onContact, onEdit, lead, compared, comparing, onCompare } = view;
  const cheapest = cheapestOf(result.quotes);
  const chosen = compared.flatMap((slug) => result.quotes.filter((q) => q.carrierSlug === slug));
  return html`<section part="results" aria-labelledby="results">
    <h2 id="results" tabindex="-1">${t("yourQuotes")}</h2>
    <p class="muted">${t("validUntil", { date: formatDate(lang, result.expiresAt, true) })}</p>
    ${result.quotes.length === 0
      ? html`<p class="notice" part="empty">${t("noQuotes")}</p>`
      : html`${result.quotes.length > 1 ? html`<p class="muted" id="compare-hint">${t("compareHint")}</p>` : nothing}
          <ol class="quotes">
            ${result.quotes.map((quote) => renderQuote(view, quote, quote.carrierSlug === cheapest))}
          </ol>`}
    ${comparing && chosen.length >= 2 ? renderComparison(t, lang, result.insuranceLine, chosen, cheapest, () => onCompare(false)) : nothing}
    <div class="actions">
      ${chosen.length >= 2 && !comparing
        ? html`<button part="button compare" @click=${() => onCompare(true)}>${t("compareChosen", { n: chosen.length })}</button>`
        : nothing}
      ${lead ? nothing : html`<button part="button" @click=${() => onContact()}>${t("contactMe")}</button>`}
      <button class="secondary" part="button" @click=${onEdit}>${t("changeDetails")}</button>
    </div>
    ${lead ?? nothing}
  </section>`;
}

function renderQuote({ t, lang, result, onContact, compared, onToggleCompare }: QuoteResultsView, quote: CarrierQuote, isCheapest: boolean) {
  const price = priceView(t, lang, result.insuranceLine, quote);
  const ticked = compared.includes(quote.carrierSlug);
  const full = !ticked && compared.length >= MAX_COMPARED;
  const contact = t("contactAbout");
  return html`<li>
    <article class="quote ${isCheapest ? "cheapest" : ""}" part="quote">
      <h3>${quote.carrier}</h3>
      ${isCheapest ? html`<p><span class="badge" part="cheapest-badge">${t("cheapest")}</span></p>` : nothing}
      <p class="price">${price.main}<span>${price.unit}</span></p>
      ${price.secondary ? html`<p class="muted">${price.secondary}</p>` : nothing}
      <dl>
        <dt>${t("coverage")}</dt>
        <dd>${quote.coverage}</dd>
        <dt>${t("deductible")}</dt>
        <dd>${formatMoney(lang, quote.deductible)}</dd>
      </dl>
      ${result.quotes.length > 1
        ? html`<label class="compare-box">
            <input type="checkbox" part="compare" .checked=${ticked} ?disabled=${full} aria-describedby="compare-hint" @change=${() => onToggleCompare(quote.carrierSlug)} />
            ${t("compareThis", { carrier: quote.carrier })}
          </label>`
        : nothing}
      <!-- The visible words stay short; the name a screen reader hears adds the carrier (and starts with those words). -->
      <button class="secondary" part="button" aria-label=${t("contactAboutCarrier", { carrier: quote.carrier })} @click=${() => onContact(quote)}>${contact}</button>
    </article>
  </li>`;
}
