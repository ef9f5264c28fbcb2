import { html } from "lit";
import { formatNumber } from "./format.ts";
import { isSingular, type Lang, type Translate } from "./i18n.ts";
import type { BrokerSummary } from "./types.ts";

export const STAR_VALUES = [5, 4, 3, 2, 1] as const;

/** "5 stars" / "1 étoile". */
export function starsLabel(t: Translate, lang: Lang, n: number): string {
  return t(isSingular(lang, n) ? "starsOne" : "starsMany", { n });
}

/**
 * The per-star histogram: one toggle button per star value ("5 stars: 12 reviews, show only
 * these"), its bar as long as its share of the largest count. The pressed bar is the active
 * filter; pressing it again clears it. Bars without reviews are disabled: they would only
 * show an empty list. Each bar's share travels in data-share and becomes its width in
 * sizeBars, through the CSSOM: a style="" attribute would be blocked by a page's strict CSP.
 */
export function renderHistogram(
  t: Translate,
  lang: Lang,
  distribution: BrokerSummary["distribution"],
  active: number | undefined,
  pick: (stars: number) => void,
) {
  const counts = STAR_VALUES.map((n) => distribution[String(n) as keyof typeof distribution] ?? 0);
  const largest = Math.max(1, ...counts);
  return html`<div class="histogram" part="histogram" role="group" aria-label=${t("ratingBreakdown")}>
    ${STAR_VALUES.map((n, i) => {
      const count = counts[i] ?? 0;
      const reviews = t(isSingular(lang, count) ? "reviewsOne" : "reviewsMany", { n: formatNumber(lang, count) });
      return html`<button
        type="button"
        class="bar"
        part="histogram-bar"
        aria-pressed=${active === n ? "true" : "false"}
        aria-label=${t("barLabel", { stars: starsLabel(t, lang, n), reviews })}
        ?disabled=${count === 0}
        @click=${() => pick(n)}
      >
        <span class="bar-stars" aria-hidden="true">${n} ★</span>
        <span class="bar-track" aria-hidden="true"><span class="bar-fill" data-share=${count / largest}></span></span>
        <span class="bar-count" aria-hidden="true">${formatNumber(lang, count)}</span>
      </button>`;
    })}
  </div>`;
}

/** Sets every bar's width from its data-share; call after each render (the element's updated()). */
export function sizeBars(root: ParentNode): void {
  for (const bar of root.querySelectorAll<HTMLElement>(".bar-fill")) bar.style.width = `${Number(bar.dataset.share) * 100}%`;
}
