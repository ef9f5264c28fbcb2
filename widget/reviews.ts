import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import { ApiError, apiRequest } from "./api.ts";
import { BrokerElement, defineOnce, isAbort, SetupProblem } from "./base.ts";
import { REVIEW_SORTS } from "./discovery.ts";
import { changedControl, renderField } from "./formField.ts";
import { formatDate } from "./format.ts";
import { renderHistogram, sizeBars, starsLabel } from "./histogram.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerSummary, Review, ReviewSort, ReviewsQuery } from "./types.ts";

type Status = "loading" | "ready" | "failed";

/**
 * <broker-reviews broker="slug">: a broker's rating summary, its per-star histogram (each bar
 * filters the list to that many stars) and its reviews in the order the sort menu asks for.
 */
export class BrokerReviews extends BrokerElement {
  static override properties: PropertyDeclarations = {
    broker: {},
    limit: { type: Number },
    sort: { state: true },
    rating: { state: true },
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
      .histogram {
        display: grid;
        gap: 0.125rem;
        max-width: 24rem;
        margin-bottom: 0.75rem;
      }
      .bar {
        display: grid;
        grid-template-columns: 2.5rem 1fr 2.5rem;
        gap: 0.5rem;
        align-items: center;
        min-height: 32px;
        padding: 0.125rem 0.375rem;
        border: 2px solid transparent;
        background: transparent;
        color: var(--_fg);
        font-weight: 400;
        text-align: start;
      }
      .bar:hover:not([disabled]),
      .bar[aria-pressed="true"] {
        border-color: var(--_accent);
      }
      .bar[aria-pressed="true"] {
        background: var(--_surface);
        font-weight: 600;
      }
      .bar[disabled] {
        cursor: default;
        opacity: 0.6;
      }
      .bar-stars {
        white-space: nowrap;
      }
      .bar-track {
        height: 0.625rem;
        border-radius: 999px;
        border: 1px solid var(--_border);
        overflow: hidden;
      }
      .bar-fill {
        display: block;
        height: 100%;
        width: 0;
        background: var(--_star);
      }
      .bar-count {
        text-align: end;
      }
      .controls {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: end;
        margin-bottom: 0.75rem;
      }
      /* Right-aligned beside the filter line; a row of its own, full width, on a narrow screen. */
      .sort {
        flex: 1 1 12rem;
        max-width: 16rem;
        margin-inline-start: auto;
      }
      .active-filter {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 0.75rem;
        align-items: center;
        margin: 0;
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
  declare sort: ReviewSort;
  /** Only reviews with this many stars (a histogram bar), or all. */
  declare rating: number | undefined;
  declare summary: BrokerSummary | undefined;
  declare reviews: Review[];
  declare status: Status;
  declare error: unknown;
  private controller: AbortController | undefined;

  constructor() {
    super();
    this.reviews = [];
    this.status = "loading";
    this.sort = "newest";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another broker's histogram has other bars: its filter starts cleared.
    if (changed.has("broker")) {
      this.rating = undefined;
      this.summary = undefined;
    }
    if (["broker", "limit", "apiKey", "apiBase", "sort", "rating"].some((name) => changed.has(name as keyof BrokerReviews))) void this.load();
  }

  protected override updated(): void {
    sizeBars(this.renderRoot);
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
      const query: ReviewsQuery = {
        broker: this.broker,
        sort: this.sort === "newest" ? undefined : this.sort,
        rating: this.rating,
        limit: this.limit && this.limit > 0 ? Math.min(Math.floor(this.limit), 50) : undefined,
      };
      const answer = await apiRequest<{ data: { broker: BrokerSummary; reviews: Review[] } }>(this.apiConfig(), "/embed/reviews", {
        query,
        signal: controller.signal,
      });
      if (!answer?.data?.broker || !Array.isArray(answer.data.reviews)) throw new ApiError(502, "unexpected answer from /embed/reviews");
      this.summary = answer.data.broker;
      this.reviews = answer.data.reviews;
      this.status = "ready";
      this.announce(this.listHeadline() ?? (this.reviews.length ? this.t("reviewsOf", { name: this.summary.name }) : this.t("noReviews")));
    } catch (error) {
      if (isAbort(error)) return;
      this.error = error;
      this.status = "failed";
      this.announce(this.problemMessage(error));
    }
  }

  /** With a star filter: "Showing only reviews with 5 stars." (or that there are none). */
  private listHeadline(): string | undefined {
    if (this.rating === undefined) return undefined;
    const stars = starsLabel(this.t, this.language, this.rating);
    return this.t(this.reviews.length ? "onlyStars" : "noReviewsWithRating", { stars });
  }

  /** A bar toggles its filter; the bar keeps focus, so the keyboard user stays where they were. */
  private pickRating(stars: number): void {
    this.rating = this.rating === stars ? undefined : stars;
  }

  private async clearRating(): Promise<void> {
    const was = this.rating;
    this.rating = undefined;
    await this.updateComplete;
    // The clear button is gone: put focus on the bar that was pressed.
    const bars = this.renderRoot.querySelectorAll<HTMLElement>("[part=histogram-bar]");
    bars[5 - (was ?? 5)]?.focus();
  }

  override render() {
    return html`${this.renderLive()}${this.renderBody()}`;
  }

  private renderControls(broker: BrokerSummary) {
    const { t } = this;
    if (broker.reviewCount === 0) return nothing;
    const headline = this.listHeadline();
    // An answer without distribution (an older server) still gets the sort menu.
    return html`${broker.distribution ? renderHistogram(t, this.language, broker.distribution, this.rating, (n) => this.pickRating(n)) : nothing}
      <div class="controls">
        ${headline
          ? html`<p class="active-filter" part="active-filter">
              <span>${headline}</span>
              <button type="button" class="secondary" part="button clear-filter" @click=${() => void this.clearRating()}>
                ${t("showAllReviews")}
              </button>
            </p>`
          : nothing}
        <div class="sort" @change=${(e: Event) => (this.sort = changedControl(e).value as ReviewSort)}>
          ${renderField({
            name: "sort",
            control: "select",
            label: t("sortReviews"),
            value: this.sort,
            options: REVIEW_SORTS.map((sort) => ({ value: sort, label: t(`reviewSort.${sort}`) })),
          })}
        </div>
      </div>`;
  }

  private renderBody() {
    const { t } = this;
    if (this.status === "failed") return this.renderProblem(this.error, () => void this.load());
    // A new order or filter keeps the summary and the list in place (marked busy) until the answer.
    if (!this.summary) return html`<p class="muted" part="loading">${t("loadingReviews")}</p>`;
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
      ${this.renderControls(broker)}
      ${this.reviews.length === 0
        ? html`<p class="notice" part="empty">${this.rating === undefined ? t("noReviews") : this.listHeadline()}</p>`
        : html`<ul class="list" part="review-list" aria-busy=${this.status === "loading" ? "true" : "false"}>
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
