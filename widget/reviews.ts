import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import { ApiError, apiRequest } from "./api.ts";
import { BrokerElement, defineOnce, isAbort, SetupProblem } from "./base.ts";
import { formatDate } from "./format.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerSummary, Review } from "./types.ts";

type Status = "loading" | "ready" | "failed";

/** <broker-reviews broker="slug">: a broker's rating summary and latest reviews. */
export class BrokerReviews extends BrokerElement {
  static override properties: PropertyDeclarations = {
    broker: {},
    limit: { type: Number },
    summary: { state: true },
    reviews: { state: true },
    status: { state: true },
    error: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    css`
      .summary {
        display: flex;
        gap: 0.75rem;
        align-items: center;
        margin-bottom: 1rem;
      }
      .summary h2 {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .list {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.75rem;
      }
      .review {
        padding: 0.875rem;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
      }
      .review h3 {
        margin: 0.25rem 0;
        overflow-wrap: anywhere;
      }
      .body {
        white-space: pre-line;
        overflow-wrap: anywhere;
        margin: 0.25rem 0 0;
      }
    `,
  ];

  declare broker: string | undefined;
  declare limit: number | undefined;
  declare summary: BrokerSummary | undefined;
  declare reviews: Review[];
  declare status: Status;
  declare error: unknown;
  private controller: AbortController | undefined;

  constructor() {
    super();
    this.reviews = [];
    this.status = "loading";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (["broker", "limit", "apiKey", "apiBase"].some((name) => changed.has(name as keyof BrokerReviews))) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.controller?.abort();
  }

  async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.status = "loading";
    try {
      if (!this.broker) throw new SetupProblem("problem.missingBroker");
      this.announce(this.t("loadingReviews"));
      const answer = await apiRequest<{ data: { broker: BrokerSummary; reviews: Review[] } }>(this.apiConfig(), "/embed/reviews", {
        query: { broker: this.broker, limit: this.limit && this.limit > 0 ? Math.min(Math.floor(this.limit), 50) : undefined },
        signal: controller.signal,
      });
      if (!answer?.data?.broker || !Array.isArray(answer.data.reviews)) throw new ApiError(502, "unexpected answer from /embed/reviews");
      this.summary = answer.data.broker;
      this.reviews = answer.data.reviews;
      this.status = "ready";
      this.announce(this.reviews.length ? this.t("reviewsOf", { name: this.summary.name }) : this.t("noReviews"));
    } catch (error) {
      if (isAbort(error)) return;
      this.error = error;
      this.status = "failed";
      this.announce(this.problemMessage(error));
    }
  }

  override render() {
    return html`${this.renderLive()}${this.renderBody()}`;
  }

  private renderBody() {
    const { t } = this;
    if (this.status === "failed") return this.renderProblem(this.error, () => void this.load());
    if (this.status === "loading" || !this.summary) return html`<p class="muted" part="loading">${t("loadingReviews")}</p>`;
    const broker = this.summary;
    const photo = safeImageUrl(broker.photoUrl);
    return html`<section part="reviews" aria-labelledby="heading">
      <div class="summary" part="summary">
        ${photo ? html`<img class="photo" part="photo" src=${photo} alt="" width="56" height="56" />` : nothing}
        <div>
          <h2 id="heading">${t("reviewsOf", { name: broker.name })}</h2>
          ${verifiedBadge(t, broker.isVerified)}
          <div part="rating">
            ${starRating(t, this.language, broker.averageRating, broker.reviewCount)}
            ${ratingSummary(t, this.language, broker.averageRating, broker.reviewCount)}
          </div>
        </div>
      </div>
      ${this.reviews.length === 0
        ? html`<p class="notice" part="empty">${t("noReviews")}</p>`
        : html`<ul class="list">
            ${this.reviews.map((review) => this.renderReview(review))}
          </ul>`}
    </section>`;
  }

  // Every API string goes through a text binding: review content such as <img onerror=…> stays text.
  private renderReview(review: Review) {
    const { t, language } = this;
    return html`<li>
      <article class="review" part="review">
        ${starRating(t, language, review.rating)}
        <h3>${review.title}</h3>
        <p class="muted">${t("reviewBy", { name: review.authorName })} · <time datetime=${review.createdAt}>${formatDate(language, review.createdAt)}</time></p>
        <p class="body">${review.content}</p>
      </article>
    </li>`;
  }
}

defineOnce("broker-reviews", BrokerReviews);
