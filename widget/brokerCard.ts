import { html, nothing } from "lit";
import { formatDistance } from "./format.ts";
import { lineLabel, type Lang, type Translate } from "./i18n.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerCard } from "./types.ts";

/**
 * One directory card: photo, linked name, place, Verified badge, distance (only when the
 * list was asked for brokers near a place), stars and lines. Every API string is a text binding.
 */
export function renderBrokerCard(t: Translate, language: Lang, broker: BrokerCard, href: string, onSelect: (event: MouseEvent) => void) {
  const photo = safeImageUrl(broker.photoUrl);
  return html`<li>
    <article class="card" part="card">
      <div class="head">
        ${photo ? html`<img class="photo" part="card-photo" src=${photo} alt="" loading="lazy" width="56" height="56" />` : nothing}
        <div>
          <h3 class="name" part="card-name">
            <a href=${href} part="card-link" @click=${onSelect}>${broker.name}</a>
          </h3>
          <span class="muted" part="card-place">${broker.city}, ${broker.province}</span>
          ${verifiedBadge(t, broker.isVerified)}
          ${broker.distanceKm === undefined
            ? nothing
            : html`<div class="muted" part="card-distance">${t("distanceAway", { distance: formatDistance(language, broker.distanceKm) })}</div>`}
        </div>
      </div>
      <div class="rating" part="rating">
        ${starRating(t, language, broker.averageRating, broker.reviewCount)} ${ratingSummary(t, language, broker.averageRating, broker.reviewCount)}
      </div>
      ${broker.insuranceLines.length
        ? html`<ul class="chips" part="lines" aria-label=${t("linesOffered")}>
            ${broker.insuranceLines.map((line) => html`<li>${lineLabel(t, line)}</li>`)}
          </ul>`
        : nothing}
    </article>
  </li>`;
}
