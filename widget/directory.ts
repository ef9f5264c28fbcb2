import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import { ApiError, apiRequest } from "./api.ts";
import { BrokerElement, defineOnce, isAbort, SetupProblem } from "./base.ts";
import { Debouncer } from "./debounce.ts";
import { allowedSort, FILTER_FACETS, messagesByField, sortsFor, type FilterField } from "./discovery.ts";
import { renderDirectoryFilters } from "./directoryFilters.ts";
import { toQuoteLine } from "./fields.ts";
import { changedControl } from "./formField.ts";
import { formatNumber } from "./format.ts";
import { normalizePostalCode } from "./postalCode.ts";
import { findProvince } from "./provinces.ts";
import { renderBrokerCard } from "./brokerCard.ts";
import { CARD_SKELETON_DEFAULT, renderCardSkeletons } from "./cardSkeleton.ts";
import "./profileDialog.ts";
import type { BrokerProfileDialog } from "./profileDialog.ts";
import { skeletonStyles } from "./skeleton.ts";
import type { BrokerCard, BrokerPage, BrokerSort, BrokersQuery, FacetCounts } from "./types.ts";

/** invalid: the server refused a filter (422); its message shows beside that control. */
type Status = "loading" | "ready" | "failed" | "invalid";

// Long enough to skip the requests for half-typed words, short enough to feel live.
const TYPING_PAUSE_MS = 300;

/**
 * <broker-directory>: broker cards from GET /embed/brokers with a search box, a Near
 * postal-code field, province and insurance-type filters with facet counts, a sort menu and
 * Show more paging. Each card links through the `link` pattern ("#{slug}" by default) and
 * fires a cancelable broker-widget:select first, so a host page can open its own view instead.
 * With the default pattern the card opens the broker's profile in a dialog (<broker-profile-dialog>),
 * and the address's #slug opens it too (a shared link, the Forward button).
 *
 * @csspart cards - the list of cards
 * @csspart card - one broker card
 * @csspart skeleton - the loading placeholder (cards of the final size)
 * @fires broker-widget:select - cancelable, before a card's link is followed
 */
export class BrokerDirectory extends BrokerElement {
  static override properties: PropertyDeclarations = {
    province: {},
    city: {},
    insuranceType: { attribute: "insurance-type" },
    limit: { type: Number },
    link: {},
    selectedProvince: { state: true },
    selectedType: { state: true },
    q: { state: true },
    near: { state: true },
    sort: { state: true },
    brokers: { state: true },
    total: { state: true },
    facets: { state: true },
    status: { state: true },
    error: { state: true },
    fieldErrors: { state: true },
    loadingMore: { state: true },
    moreError: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    skeletonStyles,
    css`
      .filters {
        margin-bottom: 1rem;
      }
      .cards {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.75rem;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr));
      }
      /* A fixed height, the skeleton's too: the page does not move when the cards arrive. */
      .card {
        display: flex;
        flex-direction: column;
        gap: 0.5rem;
        height: 13.5rem;
        overflow: hidden;
        padding: 0.875rem;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_surface);
      }
      .head {
        display: flex;
        gap: 0.75rem;
        align-items: center;
      }
      .name {
        font-size: 1.0625rem;
        margin: 0;
        overflow-wrap: anywhere;
        display: -webkit-box;
        -webkit-box-orient: vertical;
        -webkit-line-clamp: 2;
        overflow: hidden;
      }
      .head > div {
        min-width: 0;
        flex: 1;
      }
      .place {
        display: block;
        overflow: hidden;
        white-space: nowrap;
        text-overflow: ellipsis;
      }
      .card .chips {
        max-height: 3.25rem;
        overflow: hidden;
      }
      .count {
        min-height: 1.3rem;
      }
      .more {
        min-height: 44px;
      }
      .name a {
        text-decoration: none;
      }
      .name a:hover {
        text-decoration: underline;
      }
      .rating {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 0.5rem;
        align-items: center;
      }
    `,
  ];

  declare province: string | undefined;
  declare city: string | undefined;
  declare insuranceType: string | undefined;
  declare limit: number | undefined;
  declare link: string | undefined;
  declare selectedProvince: string;
  declare selectedType: string;
  /** The applied search text and Near value (trimmed); the fields' raw text is qText/nearText. */
  declare q: string;
  declare near: string;
  declare sort: BrokerSort;
  declare brokers: BrokerCard[];
  declare total: number;
  declare facets: FacetCounts | undefined;
  declare status: Status;
  declare error: unknown;
  declare fieldErrors: Partial<Record<FilterField | "other", string>>;
  declare loadingMore: boolean;
  declare moreError: unknown;
  private qText = "";
  private nearText = "";
  private page = 1;
  private readonly typingQ = new Debouncer(TYPING_PAUSE_MS);
  private readonly typingNear = new Debouncer(TYPING_PAUSE_MS);
  private controller: AbortController | undefined;

  constructor() {
    super();
    this.selectedProvince = "";
    this.selectedType = "";
    this.q = "";
    this.near = "";
    this.sort = "name";
    this.brokers = [];
    this.total = 0;
    this.status = "loading";
    this.error = undefined;
    this.fieldErrors = {};
    this.loadingMore = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The page's attributes set the starting filters; the visitor can then change them.
    if (changed.has("province")) this.selectedProvince = findProvince(this.province)?.code ?? "";
    if (changed.has("insuranceType")) this.selectedType = toQuoteLine(this.insuranceType) ?? this.insuranceType?.trim() ?? "";
    // A first place in Near means "closest first" unless the visitor chose another order;
    // clearing the search text or Near drops a sort that needed it, before anything is sent.
    if (changed.has("near") && this.near && !changed.get("near") && this.sort === "name") this.sort = "distance";
    this.sort = allowedSort(this.sort, this.q, this.near);
    const inputs = ["province", "city", "insuranceType", "limit", "apiKey", "apiBase", "selectedProvince", "selectedType", "q", "near", "sort"] as const;
    if (inputs.some((name) => changed.has(name))) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener("popstate", this.onHistory);
    window.removeEventListener("hashchange", this.onHistory);
    this.typingQ.cancel();
    this.typingNear.cancel();
    this.controller?.abort();
  }

  /** The city only narrows the province the page configured; a visitor's other choice drops it. */
  private get cityFilter(): string | undefined {
    const configured = findProvince(this.province)?.code ?? "";
    return this.selectedProvince === configured ? this.city : undefined;
  }

  private query(page: number): BrokersQuery {
    return {
      q: this.q,
      near: this.near,
      province: this.selectedProvince,
      city: this.cityFilter,
      insuranceType: this.selectedType,
      sort: this.sort === "name" ? undefined : this.sort,
      // Counts only change with the filters, not with the page.
      facets: page === 1 ? FILTER_FACETS.join(",") : undefined,
      page: page > 1 ? page : undefined,
      limit: this.limit && this.limit > 0 ? this.pageSize : undefined,
    };
  }

  /** Cards per page: the limit attribute (at most 50), else the server's default. */
  private get pageSize(): number {
    return this.limit && this.limit > 0 ? Math.min(Math.floor(this.limit), 50) : CARD_SKELETON_DEFAULT;
  }

  private async fetchPage(page: number, signal: AbortSignal): Promise<BrokerPage> {
    const answer = await apiRequest<BrokerPage>(this.apiConfig(), "/embed/brokers", { query: this.query(page), signal });
    if (!Array.isArray(answer?.data)) throw new ApiError(502, "unexpected answer from /embed/brokers");
    return { ...answer, total: typeof answer.total === "number" ? answer.total : answer.data.length };
  }

  /** The first page for the current filters, replacing the list (and cancelling a Show more under way). */
  async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.status = "loading";
    this.loadingMore = false;
    this.moreError = undefined;
    this.announce(this.t("loadingBrokers"));
    try {
      const answer = await this.fetchPage(1, controller.signal);
      this.brokers = answer.data;
      this.total = answer.total;
      this.facets = answer.facets;
      this.page = 1;
      this.fieldErrors = {};
      this.status = "ready";
      this.announceCount();
      void this.openFromLocation();
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof ApiError && error.status === 422) {
        this.fieldErrors = messagesByField(error);
        this.status = "invalid";
        this.announce(Object.values(this.fieldErrors).join(" "));
        return;
      }
      this.error = error;
      this.status = "failed";
      this.announce(this.problemMessage(error));
    }
  }

  /** Show more: appends the next page and moves focus to its first card, so keyboard users read on from there. */
  async loadMore(): Promise<void> {
    if (this.status !== "ready" || this.loadingMore) return;
    const controller = (this.controller = new AbortController());
    this.loadingMore = true;
    this.moreError = undefined;
    this.announce(this.t("loadingBrokers"));
    try {
      const answer = await this.fetchPage(this.page + 1, controller.signal);
      const shown = new Set(this.brokers.map((b) => b.id));
      const added = answer.data.filter((b) => !shown.has(b.id));
      const firstNew = this.brokers.length;
      this.brokers = [...this.brokers, ...added];
      // An empty page means the directory shrank meanwhile: stop offering more.
      this.total = added.length === 0 ? this.brokers.length : answer.total;
      this.page += 1;
      this.loadingMore = false;
      this.announceCount();
      await this.updateComplete;
      this.renderRoot.querySelectorAll<HTMLElement>("[part~=card-link]")[firstNew]?.focus();
    } catch (error) {
      if (isAbort(error)) return;
      this.loadingMore = false;
      this.moreError = error;
      this.announce(this.problemMessage(error));
    }
  }

  private announceCount(): void {
    this.announce(
      this.brokers.length === 0
        ? this.t("noBrokers")
        : this.t("brokersShown", { n: formatNumber(this.language, this.brokers.length), total: formatNumber(this.language, this.total) }),
    );
  }

  private applySearch(): void {
    this.typingQ.cancel();
    this.q = this.qText.trim();
  }

  private applyNear(): void {
    this.typingNear.cancel();
    this.near = this.nearText.trim();
  }

  private onInput(event: Event): void {
    const { name, value } = changedControl(event);
    if (name === "q") {
      this.qText = value;
      this.typingQ.schedule(() => this.applySearch());
    } else if (name === "near") {
      this.nearText = value;
      // A half-typed postal code would only earn a 422: wait for a whole one, or Enter / leaving the field.
      if (value.trim() === "" || normalizePostalCode(value)) this.typingNear.schedule(() => this.applyNear());
      else this.typingNear.cancel();
    }
  }

  private onChange(event: Event): void {
    const { name, value } = changedControl(event);
    if (name === "q") this.applySearch();
    else if (name === "near") this.applyNear();
    else if (name === "province") this.selectedProvince = value;
    else if (name === "insuranceType") this.selectedType = value;
    else if (name === "sort") this.sort = value as BrokerSort;
  }

  private onSubmit(event: Event): void {
    event.preventDefault();
    this.applySearch();
    this.applyNear();
  }

  private href(slug: string): string {
    return (this.link || "#{slug}").replace(/\{slug\}/g, encodeURIComponent(slug));
  }

  private onSelect(event: MouseEvent, broker: BrokerCard, href: string): void {
    if (!this.emit("broker-widget:select", { kind: "broker", broker, href }, true)) {
      event.preventDefault();
      return;
    }
    // The default link is a fragment of this page: the profile opens here instead of a jump.
    if (this.link) return;
    event.preventDefault();
    void this.profileDialog?.open(broker.slug, broker.name, event.currentTarget as HTMLElement, href);
  }

  private get profileDialog(): BrokerProfileDialog | null {
    return this.renderRoot.querySelector("broker-profile-dialog");
  }

  /** #slug of a listed broker in the address (a shared link, Forward): its profile opens. */
  private readonly onHistory = () => void this.openFromLocation();

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener("popstate", this.onHistory);
    window.addEventListener("hashchange", this.onHistory);
  }

  private async openFromLocation(): Promise<void> {
    if (this.link || !location.hash || this.profileDialog?.isOpen) return;
    const index = this.brokers.findIndex((b) => this.href(b.slug) === location.hash);
    const broker = this.brokers[index];
    if (!broker) return;
    await this.updateComplete;
    const opener = this.renderRoot.querySelectorAll<HTMLElement>("[part~=card-link]")[index];
    await this.profileDialog?.open(broker.slug, broker.name, opener, location.hash);
  }

  override render() {
    // Filters are no use while the key itself is refused; only the owner's notice remains.
    const refused = this.status === "failed" && (this.error instanceof SetupProblem || (this.error instanceof ApiError && [401, 403].includes(this.error.status)));
    return html`${this.renderLive()}${refused ? nothing : this.renderFilters()}${this.renderBody()}
      <broker-profile-dialog .apiKey=${this.apiKey} .apiBase=${this.apiBase} .theme=${this.theme} lang=${this.language}></broker-profile-dialog>`;
  }

  private renderFilters() {
    return html`<form
      class="filters grid"
      part="filters"
      role="search"
      aria-label=${this.t("filters")}
      @input=${this.onInput}
      @change=${this.onChange}
      @submit=${this.onSubmit}
    >
      ${renderDirectoryFilters({
        t: this.t,
        language: this.language,
        qText: this.qText,
        nearText: this.nearText,
        province: this.selectedProvince,
        insuranceType: this.selectedType,
        sort: this.sort,
        sorts: sortsFor(this.q, this.near),
        facets: this.facets,
        errors: this.fieldErrors,
      })}
    </form>`;
  }

  private renderBody() {
    const { t } = this;
    if (this.status === "failed") return this.renderProblem(this.error, () => void this.load());
    if (this.status === "invalid") {
      return html`<div class="notice problem" part="problem">
        <p>${t("fixFilters")}</p>
        ${this.fieldErrors.other ? html`<p class="muted">${t("serverSaid", { message: this.fieldErrors.other })}</p>` : nothing}
      </div>`;
    }
    if (this.status === "loading" && this.brokers.length === 0) return renderCardSkeletons(this.pageSize);
    if (this.brokers.length === 0) return html`<p class="notice" part="empty">${t("noBrokers")}</p>`;
    const more = this.brokers.length < this.total;
    return html`<div aria-busy=${this.status === "loading" || this.loadingMore ? "true" : "false"}>
      <p class="muted count" part="count">
        ${t("brokersShown", { n: formatNumber(this.language, this.brokers.length), total: formatNumber(this.language, this.total) })}
      </p>
      <ul class="cards" part="cards">
        ${this.brokers.map((broker) => {
          const href = this.href(broker.slug);
          return renderBrokerCard(this.t, this.language, broker, href, (e) => this.onSelect(e, broker, href));
        })}
      </ul>
      ${this.moreError ? this.renderProblem(this.moreError, () => void this.loadMore()) : nothing}
      <div class="actions more">
        ${more && !this.moreError
          ? html`<button
              class="secondary"
              part="button show-more"
              aria-disabled=${this.loadingMore ? "true" : "false"}
              @click=${() => void this.loadMore()}
            >
              ${this.loadingMore ? t("loadingBrokers") : t("showMore")}
            </button>`
          : nothing}
      </div>
    </div>`;
  }

}

defineOnce("broker-directory", BrokerDirectory);
