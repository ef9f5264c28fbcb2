import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import { ApiError, apiRequest } from "./api.ts";
import { BrokerElement, defineOnce, isAbort, SetupProblem } from "./base.ts";
import { QUOTE_LINES, toQuoteLine } from "./fields.ts";
import { formatNumber } from "./format.ts";
import { lineLabel } from "./i18n.ts";
import { findProvince, PROVINCES } from "./provinces.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerCard } from "./types.ts";

type Status = "loading" | "ready" | "failed";

/**
 * <broker-directory>: broker cards from GET /embed/brokers with a province and insurance
 * type filter. Each card links through the `link` pattern ("#{slug}" by default) and fires
 * a cancelable broker-widget:select first, so a host page can open its own view instead.
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
    brokers: { state: true },
    total: { state: true },
    status: { state: true },
    error: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
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
      .card {
        display: flex;
        flex-direction: column;
        gap: 0.5rem;
        height: 100%;
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
  declare brokers: BrokerCard[];
  declare total: number;
  declare status: Status;
  declare error: unknown;
  private controller: AbortController | undefined;

  constructor() {
    super();
    this.selectedProvince = "";
    this.selectedType = "";
    this.brokers = [];
    this.total = 0;
    this.status = "loading";
    this.error = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The page's attributes set the starting filters; the visitor can then change them.
    if (changed.has("province")) this.selectedProvince = findProvince(this.province)?.code ?? "";
    if (changed.has("insuranceType")) this.selectedType = toQuoteLine(this.insuranceType) ?? "";
    const inputs = ["province", "city", "insuranceType", "limit", "apiKey", "apiBase", "selectedProvince", "selectedType"] as const;
    if (inputs.some((name) => changed.has(name))) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.controller?.abort();
  }

  /** The city only narrows the province the page configured; a visitor's other choice drops it. */
  private get cityFilter(): string | undefined {
    const configured = findProvince(this.province)?.code ?? "";
    return this.selectedProvince === configured ? this.city : undefined;
  }

  async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.status = "loading";
    this.announce(this.t("loadingBrokers"));
    try {
      const answer = await apiRequest<{ data: BrokerCard[]; total: number }>(this.apiConfig(), "/embed/brokers", {
        query: {
          province: this.selectedProvince,
          city: this.cityFilter,
          insuranceType: this.selectedType,
          limit: this.limit && this.limit > 0 ? Math.min(Math.floor(this.limit), 50) : undefined,
        },
        signal: controller.signal,
      });
      if (!Array.isArray(answer?.data)) throw new ApiError(502, "unexpected answer from /embed/brokers");
      this.brokers = answer.data;
      this.total = typeof answer.total === "number" ? answer.total : answer.data.length;
      this.status = "ready";
      this.announce(
        this.brokers.length === 0
          ? this.t("noBrokers")
          : this.t("brokersShown", { n: this.brokers.length, total: formatNumber(this.language, this.total) }),
      );
    } catch (error) {
      if (isAbort(error)) return;
      this.error = error;
      this.status = "failed";
      this.announce(this.problemMessage(error));
    }
  }

  private href(slug: string): string {
    return (this.link || "#{slug}").replace(/\{slug\}/g, encodeURIComponent(slug));
  }

  private onSelect(event: MouseEvent, broker: BrokerCard, href: string): void {
    if (!this.emit("broker-widget:select", { kind: "broker", broker, href }, true)) event.preventDefault();
  }

  override render() {
    // Filters are no use while the key itself is refused; only the owner's notice remains.
    const refused = this.status === "failed" && (this.error instanceof SetupProblem || (this.error instanceof ApiError && [401, 403].includes(this.error.status)));
    return html`${this.renderLive()}${refused ? nothing : this.renderFilters()}${this.renderBody()}`;
  }

  private renderFilters() {
    const { t, language } = this;
    return html`<form class="filters grid" part="filters" aria-label=${t("filters")} @submit=${(e: Event) => e.preventDefault()}>
      <div class="field">
        <label for="province">${t("province")}</label>
        <select id="province" part="select" @change=${(e: Event) => (this.selectedProvince = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${this.selectedProvince === ""}>${t("allProvinces")}</option>
          ${PROVINCES.map(
            (p) => html`<option value=${p.code} ?selected=${this.selectedProvince === p.code}>${language === "fr" ? p.fr : p.en}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="type">${t("insuranceType")}</label>
        <select id="type" part="select" @change=${(e: Event) => (this.selectedType = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${this.selectedType === ""}>${t("allTypes")}</option>
          ${QUOTE_LINES.map((line) => html`<option value=${line} ?selected=${this.selectedType === line}>${lineLabel(t, line)}</option>`)}
        </select>
      </div>
    </form>`;
  }

  private renderBody() {
    const { t } = this;
    if (this.status === "failed") return this.renderProblem(this.error, () => void this.load());
    if (this.status === "loading" && this.brokers.length === 0) {
      return html`<p class="muted" part="loading">${t("loadingBrokers")}</p>`;
    }
    if (this.brokers.length === 0) return html`<p class="notice" part="empty">${t("noBrokers")}</p>`;
    return html`<div aria-busy=${this.status === "loading" ? "true" : "false"}>
      <p class="muted">${t("brokersShown", { n: this.brokers.length, total: formatNumber(this.language, this.total) })}</p>
      <ul class="cards" part="cards">
        ${this.brokers.map((broker) => this.renderCard(broker))}
      </ul>
    </div>`;
  }

  private renderCard(broker: BrokerCard) {
    const { t, language } = this;
    const href = this.href(broker.slug);
    const photo = safeImageUrl(broker.photoUrl);
    return html`<li>
      <article class="card" part="card">
        <div class="head">
          ${photo ? html`<img class="photo" part="card-photo" src=${photo} alt="" loading="lazy" width="56" height="56" />` : nothing}
          <div>
            <h3 class="name" part="card-name">
              <a href=${href} part="card-link" @click=${(e: MouseEvent) => this.onSelect(e, broker, href)}>${broker.name}</a>
            </h3>
            <span class="muted" part="card-place">${broker.city}, ${broker.province}</span>
            ${verifiedBadge(t, broker.isVerified)}
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
}

defineOnce("broker-directory", BrokerDirectory);
