import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import { ApiError, apiRequest } from "./api.ts";
import { BrokerElement, defineOnce, isAbort } from "./base.ts";
import { formatPhone } from "./format.ts";
import { isMessageKey, lineLabel } from "./i18n.ts";
import "./quoteForm.ts";
import "./reviews.ts";
import { bone, skeletonStyles } from "./skeleton.ts";
import { ratingSummary, safeImageUrl, starRating, verifiedBadge } from "./stars.ts";
import type { BrokerOffice, BrokerProfile as Profile } from "./types.ts";

type Status = "loading" | "ready" | "failed";

/**
 * <broker-profile slug="…">: one broker as a visitor needs it to get in touch — description,
 * Verified badge, every office with its address and a map link, phone (tel:), website, e-mail,
 * lines, languages, the rating breakdown and the latest reviews with Show more (an inner
 * <broker-reviews>), and "Ask this broker for a quote", which opens the quote form with this
 * broker chosen (the lead it leads to names the broker). From GET /embed/brokers/{slug}.
 * Every API string is a text binding; only http(s) URLs become links.
 *
 * @csspart profile - the profile's content
 * @csspart offices - the list of offices
 * @csspart contact - phone, website and e-mail links
 * @csspart ask-quote - the "Ask this broker for a quote" button
 * @csspart skeleton - the loading placeholder
 */
export class BrokerProfileView extends BrokerElement {
  static override properties: PropertyDeclarations = {
    slug: {},
    profile: { state: true },
    status: { state: true },
    error: { state: true },
    quoteOpen: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    skeletonStyles,
    css`
      :host {
        --bw-padding: 0;
      }
      .top {
        display: flex;
        gap: 0.75rem;
        align-items: center;
        margin-bottom: 0.75rem;
      }
      .top h2 {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .description {
        white-space: pre-line;
        overflow-wrap: anywhere;
      }
      .contact,
      .offices {
        list-style: none;
        margin: 0 0 1rem;
        padding: 0;
        display: grid;
        gap: 0.5rem;
      }
      .contact {
        margin-top: 1rem;
      }
      .contact a {
        overflow-wrap: anywhere;
      }
      .office {
        padding: 0.625rem 0.75rem;
        border: 1px solid var(--_border);
        border-radius: calc(var(--_radius) * 0.6);
        background: var(--_surface);
      }
      .office address {
        font-style: normal;
      }
      h3 {
        margin-top: 1rem;
      }
      dl.facts {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.25rem 0.75rem;
        margin: 0 0 1rem;
      }
      dl.facts dt {
        color: var(--_muted);
      }
      dl.facts dd {
        margin: 0;
      }
      .grow {
        flex: 1;
      }
      broker-reviews,
      broker-quote-form {
        --bw-padding: 0;
        margin-top: 1rem;
      }
    `,
  ];

  declare slug: string | undefined;
  declare profile: Profile | undefined;
  declare status: Status;
  declare error: unknown;
  declare quoteOpen: boolean;
  private controller: AbortController | undefined;

  constructor() {
    super();
    this.status = "loading";
    this.quoteOpen = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("slug")) {
      this.quoteOpen = false;
      if (this.profile?.slug !== this.slug) this.profile = undefined;
    }
    if (["slug", "apiKey", "apiBase"].some((name) => changed.has(name as keyof BrokerProfileView)) && this.slug) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.controller?.abort();
  }

  async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.status = "loading";
    this.announce(this.t("loadingProfile"));
    try {
      const answer = await apiRequest<{ data: Profile }>(this.apiConfig(), `/embed/brokers/${encodeURIComponent(this.slug ?? "")}`, { signal: controller.signal });
      if (!answer?.data?.slug || !Array.isArray(answer.data.locations)) throw new ApiError(502, "unexpected answer from /embed/brokers/{slug}");
      this.profile = answer.data;
      this.status = "ready";
      this.announce(this.t("profileOf", { name: answer.data.name }));
    } catch (error) {
      if (isAbort(error)) return;
      this.error = error;
      this.status = "failed";
      this.announce(this.problemMessage(error));
    }
  }

  /** The quote form opens below, with this broker chosen; focus goes to its first field. */
  private async askQuote(): Promise<void> {
    this.quoteOpen = true;
    await this.updateComplete;
    const form = this.renderRoot.querySelector<HTMLElement & { updateComplete: Promise<unknown> }>("broker-quote-form");
    await form?.updateComplete;
    form?.shadowRoot?.querySelector<HTMLElement>("select, input")?.focus();
  }

  override render() {
    return html`${this.renderLive()}${this.renderBody()}`;
  }

  private renderBody() {
    if (this.status === "failed") return this.renderProblem(this.error, () => void this.load());
    const profile = this.profile;
    if (!profile) return this.renderSkeleton();
    const { t, language } = this;
    const photo = safeImageUrl(profile.photoUrl);
    const website = safeLink(profile.website);
    return html`<article part="profile" aria-busy=${this.status === "loading" ? "true" : "false"}>
      <div class="top">
        ${photo ? html`<img class="photo" src=${photo} alt="" width="56" height="56" />` : nothing}
        <div>
          <h2 id="profile-name" tabindex="-1">${profile.name}</h2>
          ${verifiedBadge(t, profile.isVerified)}
          <div>${starRating(t, language, profile.averageRating, profile.reviewCount)} ${ratingSummary(t, language, profile.averageRating, profile.reviewCount)}</div>
        </div>
      </div>
      <p class="description">${profile.description}</p>
      <div class="actions">
        <button part="button ask-quote" aria-expanded=${this.quoteOpen ? "true" : "false"} @click=${() => void this.askQuote()}>${t("askQuote")}</button>
      </div>
      ${this.quoteOpen ? this.renderQuote(profile) : nothing}
      <ul class="contact" part="contact">
        <li><a href=${`tel:${profile.phone}`} aria-label=${t("callBroker", { phone: formatPhone(profile.phone) })}>☎ ${formatPhone(profile.phone)}</a></li>
        ${website ? html`<li><a href=${website} target="_blank" rel="noopener noreferrer">${t("websiteAt", { host: hostOf(website) })}</a></li>` : nothing}
        ${profile.email ? html`<li><a href=${`mailto:${profile.email}`}>${profile.email}</a></li>` : nothing}
      </ul>
      <dl class="facts">
        ${profile.insuranceLines.length ? html`<dt>${t("linesOffered")}</dt><dd>${profile.insuranceLines.map((line) => lineLabel(t, line)).join(", ")}</dd>` : nothing}
        ${profile.languages.length ? html`<dt>${t("languagesSpoken")}</dt><dd>${profile.languages.map((l) => this.languageName(l)).join(", ")}</dd>` : nothing}
        ${profile.specialties.length ? html`<dt>${t("specialties")}</dt><dd>${profile.specialties.join(", ")}</dd>` : nothing}
        <dt>${t("founded")}</dt><dd>${profile.foundingYear}</dd>
        <dt>${t("team")}</dt><dd>${profile.teamSize}</dd>
      </dl>
      <h3>${t("offices")}</h3>
      <ul class="offices" part="offices">
        ${profile.locations.map((office) => this.renderOffice(office))}
      </ul>
      <broker-reviews
        exportparts="review-list, review, show-more, histogram, histogram-bar"
        .apiKey=${this.apiKey}
        .apiBase=${this.apiBase}
        .theme=${this.theme}
        lang=${language}
        broker=${profile.slug}
      ></broker-reviews>
    </article>`;
  }

  private renderQuote(profile: Profile) {
    return html`<section aria-label=${this.t("quoteFor", { name: profile.name })}>
      <broker-quote-form
        exportparts="form, results, quote, field, label, input, select, error, button, problem, lead-form, lead-done"
        .apiKey=${this.apiKey}
        .apiBase=${this.apiBase}
        .theme=${this.theme}
        lang=${this.language}
        broker=${profile.slug}
        province=${profile.locations.find((o) => o.isPrimary)?.province ?? profile.province}
      ></broker-quote-form>
    </section>`;
  }

  private renderOffice(office: BrokerOffice) {
    const { t } = this;
    const map = safeLink(office.mapUrl);
    return html`<li class="office">
      ${office.isPrimary ? html`<strong>${t("mainOffice")}</strong>` : nothing}
      <address>${office.address}<br />${office.city}, ${office.province} ${office.postalCode}</address>
      ${office.phone ? html`<a href=${`tel:${office.phone}`}>${formatPhone(office.phone)}</a> · ` : nothing}
      ${map ? html`<a href=${map} target="_blank" rel="noopener noreferrer">${t("mapOf", { city: office.city })}</a>` : nothing}
    </li>`;
  }

  private languageName(language: string): string {
    const key = `language.${language}`;
    return isMessageKey(key) ? this.t(key) : language;
  }

  private renderSkeleton() {
    return html`<div class="skeleton" part="skeleton loading" aria-hidden="true" inert>
      <div class="top">${bone("round")}<div class="grow"><h2>${bone("half")}</h2>${bone("short")}</div></div>
      <p>${bone()}${bone()}${bone("half")}</p>
    </div>`;
  }
}

/** Only http(s) URLs from the API become links (a javascript: URL never does). */
function safeLink(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

defineOnce("broker-profile", BrokerProfileView);
