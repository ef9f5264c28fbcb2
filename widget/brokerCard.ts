import { html, nothing } from "lit";
import { formatDistance } from "./format.ts";
import { lineLabel, type Lang, type Translate } from "./i18n.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerCard } from "./types.ts";

/** "2.3 km away", naming the office measured to when the server says which (it may not be the primary one). */
function distanceText(t: Translate, language: Lang, broker: BrokerCard): string {
  const distance = formatDistance(language, broker.distanceKm ?? 0);
  const office = broker.nearestOffice;
  return office ? t("nearestOfficeAway", { distance, city: office.city, province: office.province }) : t("distanceAway", { distance });
}

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
          <span class="muted place" part="card-place">${broker.city}, ${broker.province}</span>
          ${verifiedBadge(t, broker.isVerified)}
          ${broker.distanceKm === undefined ? nothing : html`<div class="muted place" part="card-distance">${distanceText(t, language, broker)}</div>`}
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
