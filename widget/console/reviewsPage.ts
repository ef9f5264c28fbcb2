import { html, nothing, type PropertyDeclarations } from "lit";
import { HIDE_REASONS, REVIEW_STATES, type HideReason } from "../../src/domain/directoryStates.ts";
import type { QueuedReviewView } from "../../src/router/directory/directoryReviewQueue.ts";
import { defineOnce } from "./consoleElement.ts";
import type { BdHideReviewDialog } from "./hideReviewDialog.ts";
import { formatWhen } from "./i18n.ts";
import { PagedListPage } from "./pagedListPage.ts";
import "./hideReviewDialog.ts";

type Filters = {
  rating: string;
  state: string;
  broker: string;
};

/**
 * <bd-reviews-page>: the moderation queue, every review of the directory newest first
 * (directory.reviewQueue), filtered by rating, state and broker (in the URL's query). Hide
 * (with a reason) and Restore act at once; the queue is read again, so each review's line shows
 * its broker's rating as it now stands, and the change is announced with it.
 */
export class BdReviewsPage extends PagedListPage<QueuedReviewView, Filters> {
  static override properties: PropertyDeclarations = { ...PagedListPage.properties, busy: { state: true } };
  /** The review whose Restore is on its way. */
  declare busy: string | undefined;
  protected readonly route = "/console/reviews";
  protected readonly endpoint = "/console/api/directory/reviews";
  protected readonly countKey = "rev.count";
  /** A load follows each hiding or restoring, which announces itself (changed). */
  protected override readonly announcesCount = false;

  constructor() {
    super(["rating", "state", "broker"]);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener("review-changed", (event) => void this.changed((event as CustomEvent<{ id: string; hidden: boolean }>).detail));
  }

  /** After a hiding or a restoring: the queue again, and the broker's rating as it now is, said aloud. */
  private async changed({ id, hidden }: { id: string; hidden: boolean }): Promise<void> {
    await this.load();
    const review = this.rows?.find((r) => r.id === id);
    if (!review) return;
    const { broker } = review;
    this.announce(this.t(hidden ? "rev.hiddenDone" : "rev.restoredDone", { broker: broker.name, rating: broker.averageRating.toFixed(2), count: broker.reviewCount }));
    // The button pressed was replaced (Hide by Restore, or back): keyboard focus goes to its successor.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`article[aria-labelledby="r-${id}"] .actions button`)?.focus();
  }

  private async restore(review: QueuedReviewView): Promise<void> {
    this.busy = review.id;
    try {
      await this.api.send("POST", `/console/api/directory/reviews/${encodeURIComponent(review.id)}/restore`, {});
      await this.changed({ id: review.id, hidden: false });
    } catch (error) {
      this.error = error;
    } finally {
      this.busy = undefined;
    }
  }

  private onlyBroker(id: string): void {
    this.refilter({ ...this.filters, broker: id });
  }

  override render() {
    const t = this.t;
    const f = this.filters;
    return html`
      <h1 tabindex="-1">${t("rev.heading")}</h1>
      <p class="muted">${t("rev.intro")}</p>
      <form class="card" role="search" aria-label=${t("rev.filters")} @submit=${this.apply}>
        <div class="row">
          <div class="field"><label for="f-rating">${t("rev.rating")}</label>
            <select id="f-rating" name="rating"><option value="">${t("rev.anyRating")}</option>
              ${[5, 4, 3, 2, 1].map((n) => html`<option value=${n} ?selected=${f.rating === String(n)}>${t("rev.stars", { n })}</option>`)}
            </select></div>
          <div class="field"><label for="f-state">${t("dir.state")}</label>
            <select id="f-state" name="state"><option value="">${t("dir.anyState")}</option>
              ${REVIEW_STATES.map((s) => html`<option value=${s} ?selected=${f.state === s}>${t(`state.${s}`)}</option>`)}
            </select></div>
          <div class="field"><label for="f-broker">${t("rev.broker")}</label><input id="f-broker" name="broker" inputmode="numeric" maxlength="20" size="8" .value=${f.broker} /></div>
          <div class="field"><button type="submit">${t("leads.apply")}</button></div>
        </div>
      </form>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${this.rows === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.rows?.length === 0 ? html`<p>${t("rev.empty")}</p>` : nothing}
      ${this.rows && this.rows.length > 0
        ? html`<ol class="plain" aria-label=${t("rev.caption")}>${this.rows.map((review) => this.renderReview(review))}</ol>`
        : nothing}
      ${this.renderPager()}
      <bd-hide-review-dialog .api=${this.api} lang=${this.lang}></bd-hide-review-dialog>
    `;
  }

  private renderReview(review: QueuedReviewView) {
    const t = this.t;
    const { broker } = review;
    const hidden = review.state === "hidden";
    const reason = review.hidden?.reason ?? "";
    const label = (HIDE_REASONS as readonly string[]).includes(reason) ? t(`reason.${reason as HideReason}`) : reason;
    const why = [label, review.hidden?.note ?? ""].filter(Boolean).join(" — ");
    return html`<li><article class="card" aria-labelledby="r-${review.id}">
      <h2 id="r-${review.id}">
        <span aria-label=${t("rev.stars", { n: review.rating })}>${"★".repeat(review.rating)}${"☆".repeat(5 - review.rating)}</span>
        ${review.title} <span class="badge ${review.state}">${t(`state.${review.state}`)}</span>
      </h2>
      <blockquote>${review.content}</blockquote>
      <p class="muted">${t("rev.author", { name: review.authorName, when: formatWhen(this.lang, review.createdAt, "") })}</p>
      <p>${this.link(`/console/directory/${encodeURIComponent(broker.id)}`, broker.name)} ·
        <span class="rating">${t("rev.brokerRating", { name: broker.name, rating: broker.averageRating.toFixed(2), count: broker.reviewCount })}</span></p>
      ${hidden && why ? html`<p class="error">${t("rev.hiddenWhy", { reason: why })}</p>` : nothing}
      <div class="actions">
        ${hidden
          ? html`<button ?disabled=${this.busy === review.id} @click=${() => this.restore(review)}>${t("rev.restore")}</button>`
          : html`<button class="danger" @click=${(e: MouseEvent) => this.renderRoot.querySelector<BdHideReviewDialog>("bd-hide-review-dialog")?.show(review, e.currentTarget as HTMLElement)}>${t("rev.hide")}</button>`}
        ${this.filters.broker === broker.id ? nothing : html`<button class="secondary" @click=${() => this.onlyBroker(broker.id)}>${t("rev.onlyBroker")}</button>`}
      </div>
    </article></li>`;
  }
}

defineOnce("bd-reviews-page", BdReviewsPage);
