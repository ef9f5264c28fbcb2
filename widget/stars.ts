import { html, nothing } from "lit";
import { formatNumber } from "./format.ts";
import { isSingular, type Lang, type Translate } from "./i18n.ts";

/**
 * Five stars for a rating, announced as one image with a text label ("Rated 4.5 out of 5"),
 * because a row of star glyphs is meaningless to a screen reader. A broker without reviews
 * (averageRating 0, reviewCount 0) says so instead of showing five empty stars.
 */
export function starRating(t: Translate, lang: Lang, rating: number, reviewCount = 1) {
  if (reviewCount === 0) return html`<span class="muted">${t("noRatingYet")}</span>`;
  const filled = Math.round(rating);
  return html`<span class="stars" part="stars" role="img" aria-label=${t("rated", { rating: formatNumber(lang, rating, 2) })}
    >${[1, 2, 3, 4, 5].map((i) => html`<span class=${i <= filled ? "on" : "off"} aria-hidden="true">★</span>`)}</span
  >`;
}

/** "4.6 · 23 reviews", or nothing when there are none (the stars already say so). */
export function ratingSummary(t: Translate, lang: Lang, rating: number, count: number) {
  if (count === 0) return nothing;
  const reviews = t(isSingular(lang, count) ? "reviewsOne" : "reviewsMany", { n: formatNumber(lang, count) });
  return html`<span class="muted"><strong>${formatNumber(lang, rating, 2)}</strong> · ${reviews}</span>`;
}

/** "✓ Verified" beside a broker whose licence was checked with the regulator; nothing otherwise. */
export function verifiedBadge(t: Translate, isVerified: boolean) {
  if (!isVerified) return nothing;
  return html`<span class="badge" part="verified" title=${t("verifiedHint")}><span aria-hidden="true">✓</span> ${t("verified")}</span>`;
}

/** Only http(s) URLs from the API become image sources. */
export function safeImageUrl(url: unknown): string | undefined {
  return typeof url === "string" && /^https?:\/\//i.test(url) ? url : undefined;
}
