import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import { ApiError, apiRequest } from "./api.ts";
import { BrokerElement, defineOnce, isAbort, SetupProblem } from "./base.ts";
import { REVIEW_SORTS } from "./discovery.ts";
import { changedControl, renderField } from "./formField.ts";
import { formatDate, formatNumber } from "./format.ts";
import { renderHistogram, sizeBars, STAR_VALUES, starsLabel } from "./histogram.ts";
import { bone, repeat, skeletonStyles } from "./skeleton.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerSummary, Review, ReviewPage, ReviewSort, ReviewsQuery } from "./types.ts";

type Status = "loading" | "ready" | "failed";

const DEFAULT_LIMIT = 5;

/**
 * <broker-reviews broker="slug">: a broker's rating summary, its per-star histogram (each bar
 * filters the list to that many stars), its reviews in the order the sort menu asks for, and
 * Show more. While the first answer is on its way a skeleton of the same size stands in; each
 * review card has a fixed height (long texts fold behind Read more), so nothing jumps.
 *
 * @csspart review-list - the list of reviews
 * @csspart review - one review card
 * @csspart show-more - the Show more button
 * @csspart skeleton - the loading placeholder
 */
export class BrokerReviews extends BrokerElement {
  static override properties: PropertyDeclarations = {
    broker: {},
    limit: { type: Number },
    sort: { state: true },
    rating: { state: true },
    summary: { state: true },
    reviews: { state: true },
    total: { state: true },
    status: { state: true },
    error: { state: true },
    loadingMore: { state: true },
    moreError: { state: true },
    expanded: { state: true },
    folded: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    skeletonStyles,
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
        /* Two lines reserved, so a long name does not push the page down once it arrives. */
        min-height: 2.5em;
        display: -webkit-box;
        -webkit-box-orient: vertical;
        -webkit-line-clamp: 2;
        overflow: hidden;
      }
      .list {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.75rem;
      }
      /* A fixed height: the skeleton's cards and the real ones take the same room. */
      .review {
        display: flex;
        flex-direction: column;
        height: 12.5rem;
        padding: 0.875rem;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
      }
      .review.open {
        height: auto;
      }
      .review h3 {
        margin: 0.25rem 0;
        overflow: hidden;
        white-space: nowrap;
        text-overflow: ellipsis;
      }
      .review .meta {
        overflow: hidden;
        white-space: nowrap;
        text-overflow: ellipsis;
      }
      .review:not(.open) .body {
        display: -webkit-box;
        -webkit-box-orient: vertical;
        -webkit-line-clamp: 3;
        overflow: hidden;
      }
      .review .fold {
        margin-top: auto;
        align-self: flex-start;
        min-height: 32px;
        padding: 0.125rem 0.5rem;
      }
      .review .fold[hidden] {
        display: block;
        visibility: hidden;
      }
      .grow {
        flex: 1;
      }
      .reviews-footer {
        min-height: 44px;
        margin-top: 0.75rem;
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
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
  /** How many reviews match (the star filter included): Show more stays while fewer are shown. */
  declare total: number;
  declare status: Status;
  declare error: unknown;
  declare loadingMore: boolean;
  declare moreError: unknown;
  /** Reviews unfolded by the visitor (Read more). */
  declare expanded: ReadonlySet<string>;
  /** Reviews whose text does not fit the card (measured after each render): only they offer Read more. */
  declare folded: ReadonlySet<string>;
  private page = 1;
  private controller: AbortController | undefined;

  constructor() {
    super();
    this.reviews = [];
    this.total = 0;
    this.status = "loading";
    this.sort = "newest";
    this.loadingMore = false;
    this.expanded = new Set();
    this.folded = new Set();
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
    // Which texts overflow their three lines depends on the width: measured, not guessed.
    const folded = new Set<string>();
    for (const body of this.renderRoot.querySelectorAll<HTMLElement>("[data-review] .body")) {
      const id = body.closest<HTMLElement>("[data-review]")?.dataset.review;
      if (id && (this.expanded.has(id) || body.scrollHeight > body.clientHeight + 1)) folded.add(id);
    }
    if (folded.size !== this.folded.size || [...folded].some((id) => !this.folded.has(id))) this.folded = folded;
  }

  private get pageSize(): number {
    return this.limit && this.limit > 0 ? Math.min(Math.floor(this.limit), 50) : DEFAULT_LIMIT;
  }

  private async fetchPage(page: number, signal: AbortSignal): Promise<ReviewPage> {
    if (!this.broker) throw new SetupProblem("problem.missingBroker");
    const query: ReviewsQuery = {
      broker: this.broker,
      sort: this.sort === "newest" ? undefined : this.sort,
      rating: this.rating,
      page: page > 1 ? page : undefined,
      limit: this.limit ? this.pageSize : undefined,
    };
    const answer = await apiRequest<{ data: ReviewPage }>(this.apiConfig(), "/embed/reviews", { query, signal });
    if (!answer?.data?.broker || !Array.isArray(answer.data.reviews)) throw new ApiError(502, "unexpected answer from /embed/reviews");
    return answer.data;
  }

  /** Show more: appends the next page and moves focus to its first review, so keyboard users read on from there. */
  async loadMore(): Promise<void> {
    if (this.status !== "ready" || this.loadingMore) return;
    const controller = (this.controller = new AbortController());
    this.loadingMore = true;
    this.moreError = undefined;
    this.announce(this.t("loadingReviews"));
    try {
      const answer = await this.fetchPage(this.page + 1, controller.signal);
      const shown = new Set(this.reviews.map((r) => r.id));
      const added = answer.reviews.filter((r) => !shown.has(r.id));
      const firstNew = this.reviews.length;
      this.reviews = [...this.reviews, ...added];
      // An empty page means reviews were hidden meanwhile: stop offering more.
      this.total = added.length === 0 ? this.reviews.length : (answer.total ?? this.reviews.length);
      this.page += 1;
      this.loadingMore = false;
      this.announce(this.shownText());
      await this.updateComplete;
      this.renderRoot.querySelectorAll<HTMLElement>("[part~=review]")[firstNew]?.focus();
    } catch (error) {
      if (isAbort(error)) return;
      this.loadingMore = false;
      this.moreError = error;
      this.announce(this.problemMessage(error));
    }
  }

  private shownText(): string {
    return this.t("reviewsShown", { n: formatNumber(this.language, this.reviews.length), total: formatNumber(this.language, this.total) });
  }

  private toggle(id: string): void {
    const expanded = new Set(this.expanded);
    if (!expanded.delete(id)) expanded.add(id);
    this.expanded = expanded;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.controller?.abort();
  }

  async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.status = "loading";
    this.loadingMore = false;
    this.moreError = undefined;
    try {
      if (!this.broker) throw new SetupProblem("problem.missingBroker");
      this.announce(this.t("loadingReviews"));
      const answer = await this.fetchPage(1, controller.signal);
      this.summary = answer.broker;
      this.reviews = answer.reviews;
      // An older server sends no total: then there is no Show more.
      this.total = answer.total ?? answer.reviews.length;
      this.page = 1;
      this.expanded = new Set();
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
    if (!this.summary) return this.renderSkeleton();
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
        : html`<ul class="list" part="review-list" aria-busy=${this.status === "loading" || this.loadingMore ? "true" : "false"}>
              ${this.reviews.map((review) => this.renderReview(review))}
            </ul>
            ${this.renderFooter()}`}
    </section>`;
  }

  /** "Showing 5 of 20 reviews." and Show more (or the problem that stopped it). */
  private renderFooter() {
    const { t } = this;
    const more = this.reviews.length < this.total;
    return html`${this.moreError ? this.renderProblem(this.moreError, () => void this.loadMore()) : nothing}
      <div class="reviews-footer">
        <p class="muted" part="count">${this.shownText()}</p>
        ${more && !this.moreError
          ? html`<button class="secondary" part="button show-more" aria-disabled=${this.loadingMore ? "true" : "false"} @click=${() => void this.loadMore()}>
              ${this.loadingMore ? t("loadingReviews") : t("moreReviews")}
            </button>`
          : nothing}
      </div>`;
  }

  /** The summary, histogram, sort menu and review cards of the answer to come, in grey. */
  private renderSkeleton() {
    const { t } = this;
    return html`<div class="skeleton" part="skeleton loading" aria-hidden="true" inert>
      <div class="summary">
        ${bone("round")}
        <div class="grow">
          <h2>${bone("half")}</h2>
          <div>${bone("short")}</div>
        </div>
      </div>
      <div class="histogram">
        ${STAR_VALUES.map((n) => html`<span class="bar"><span class="bar-stars">${n} ★</span><span class="bar-track"></span><span class="bar-count">${bone()}</span></span>`)}
      </div>
      <div class="controls">
        <div class="sort">${renderField({ name: "sort", control: "select", label: t("sortReviews"), value: "", options: [] })}</div>
      </div>
      <ul class="list">
        ${repeat(this.pageSize, () => html`<li><div class="review">${bone("short")}<h3>${bone("half")}</h3><p>${bone("short")}</p><p>${bone()}${bone()}</p></div></li>`)}
      </ul>
      <div class="reviews-footer"><p class="muted">${bone("short")}</p></div>
    </div>`;
  }

  // Every API string goes through a text binding: review content such as <img onerror=…> stays text.
  private renderReview(review: Review) {
    const { t, language } = this;
    const open = this.expanded.has(review.id);
    return html`<li>
      <article class="review ${open ? "open" : ""}" part="review" tabindex="-1" data-review=${review.id}>
        ${starRating(t, language, review.rating)}
        <h3 title=${review.title}>${review.title}</h3>
        <p class="muted meta">${t("reviewBy", { name: review.authorName })} · <time datetime=${review.createdAt}>${formatDate(language, review.createdAt)}</time></p>
        <p class="body">${review.content}</p>
        <button type="button" class="secondary fold" part="button read-more" aria-expanded=${open ? "true" : "false"} ?hidden=${!this.folded.has(review.id)} @click=${() => this.toggle(review.id)}>
          ${open ? t("readLess") : t("readMore")}
        </button>
      </article>
    </li>`;
  }
}

defineOnce("broker-reviews", BrokerReviews);
