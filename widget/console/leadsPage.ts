import { html, nothing, type PropertyDeclarations } from "lit";
import { INSURANCE_LINES } from "../../src/domain/insuranceLines.ts";
import { LEAD_SOURCES, LEAD_STATUSES } from "../../src/domain/leadVocabulary.ts";
import type { LeadView } from "../../src/schemas/lead.ts";
import type { Pagination } from "../../src/schemas/pagination.ts";
import { formatCanadianPhone } from "../../src/domain/phone.ts";
import { withQuery } from "./api.ts";
import { insuranceLabel } from "./insuranceLabel.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { formatWhen } from "./i18n.ts";

interface Filters {
  status: string;
  insuranceType: string;
  source: string;
  q: string;
}
const NO_FILTERS: Filters = { status: "", insuranceType: "", source: "", q: "" };
const PAGE_SIZE = 20;

/**
 * <bd-leads-page>: the workspace's CRM inbox, newest first, with paging, filters (status,
 * insurance type, source), search over name and e-mail, and Export CSV of the current filter.
 * The filters live in the URL's query, so a filtered inbox can be bookmarked and reloaded.
 */
export class BdLeadsPage extends ConsoleElement {
  static override properties: PropertyDeclarations = {
    ...ConsoleElement.properties,
    leads: { state: true },
    pagination: { state: true },
    filters: { state: true },
    page: { state: true },
  };
  declare leads: LeadView[] | undefined;
  declare pagination: Pagination | undefined;
  declare filters: Filters;
  declare page: number;

  constructor() {
    super();
    const query = new URLSearchParams(location.search);
    this.filters = { status: query.get("status") ?? "", insuranceType: query.get("insuranceType") ?? "", source: query.get("source") ?? "", q: query.get("q") ?? "" };
    this.page = Math.max(1, Number(query.get("page")) || 1);
  }


  protected override load(): Promise<void> {
    return this.attempt(async () => {
      const answer = await this.api.get<{ data: LeadView[]; pagination: Pagination }>("/console/api/leads", { ...this.filters, page: this.page, limit: PAGE_SIZE });
      this.leads = answer.data;
      this.pagination = answer.pagination;
      history.replaceState(null, "", withQuery("/console/leads", { ...this.filters, page: this.page > 1 ? this.page : undefined }));
      const pages = Math.max(1, answer.pagination.totalPages);
      this.announce(this.t("leads.count", { total: answer.pagination.total, page: this.page, pages }));
    });
  }

  private apply(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = { status: String(data.get("status") ?? ""), insuranceType: String(data.get("insuranceType") ?? ""), source: String(data.get("source") ?? ""), q: String(data.get("q") ?? "").trim() };
    this.page = 1;
    void this.load();
  }

  private turn(page: number): void {
    this.page = page;
    void this.load();
  }

  override render() {
    const t = this.t;
    const f = this.filters;
    const select = (name: keyof Filters, label: string, values: readonly string[], text: (v: string) => string) =>
      html`<div class="field"><label for="f-${name}">${label}</label>
        <select id="f-${name}" name=${name}>
          <option value="">${t("leads.any")}</option>
          ${values.map((v) => html`<option value=${v} ?selected=${f[name] === v}>${text(v)}</option>`)}
        </select></div>`;
    return html`
      <h1 tabindex="-1">${t("leads.heading")}</h1>
      <form class="card" role="search" aria-label=${t("leads.filters")} @submit=${this.apply}>
        <div class="row">
          <div class="field"><label for="f-q">${t("leads.search")}</label><input id="f-q" name="q" type="search" maxlength="100" .value=${f.q} /></div>
          ${select("status", t("leads.status"), LEAD_STATUSES, (v) => t(`lead.status.${v as (typeof LEAD_STATUSES)[number]}`))}
          ${select("insuranceType", t("leads.type"), INSURANCE_LINES, (v) => insuranceLabel(this.lang, v))}
          ${select("source", t("leads.source"), LEAD_SOURCES, (v) => t(`source.${v as (typeof LEAD_SOURCES)[number]}`))}
          <div class="field"><button type="submit">${t("leads.apply")}</button></div>
          <div class="field"><a class="button secondary" href=${withQuery("/console/api/leads.csv", { ...f })} download>${t("leads.export")}</a></div>
        </div>
      </form>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${this.leads === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.leads?.length === 0 ? html`<p>${t("leads.empty")}</p>` : nothing}
      ${this.leads && this.leads.length > 0 ? this.renderTable(this.leads) : nothing}
      ${this.renderPager()}
    `;
  }

  private renderTable(leads: LeadView[]) {
    const t = this.t;
    // At phone widths the table stacks into one card per lead (pageStyles' table.stack).
    return html`<div class="table-wrap"><table class="stack">
      <caption class="sr-only">${t("leads.caption")}</caption>
      <thead><tr>
        <th scope="col">${t("col.name")}</th><th scope="col">${t("col.email")}</th><th scope="col">${t("col.phone")}</th>
        <th scope="col">${t("col.type")}</th><th scope="col">${t("col.source")}</th><th scope="col">${t("col.status")}</th>
        <th scope="col">${t("col.created")}</th>
      </tr></thead>
      <tbody>${leads.map(
        (lead) => html`<tr>
          <th scope="row">${this.link(`/console/leads/${encodeURIComponent(lead.id)}`, lead.name)}</th>
          <td data-label=${t("col.email")}>${lead.email}</td>
          <td data-label=${t("col.phone")}>${formatCanadianPhone(lead.phone)}</td>
          <td data-label=${t("col.type")}>${insuranceLabel(this.lang, lead.insuranceType)}</td>
          <td data-label=${t("col.source")}>${t(`source.${lead.source}`)}</td>
          <td data-label=${t("col.status")}><span class="badge ${lead.status}">${t(`lead.status.${lead.status}`)}</span></td>
          <td data-label=${t("col.created")}>${formatWhen(this.lang, lead.createdAt, "")}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private renderPager() {
    const p = this.pagination;
    if (!p || p.totalPages <= 1) return nothing;
    const t = this.t;
    return html`<nav class="actions" aria-label=${t("leads.count", { total: p.total, page: p.page, pages: p.totalPages })}>
      <button class="secondary" ?disabled=${p.page <= 1} @click=${() => this.turn(p.page - 1)}>${t("leads.prev")}</button>
      <span class="muted">${t("leads.count", { total: p.total, page: p.page, pages: p.totalPages })}</span>
      <button class="secondary" ?disabled=${p.page >= p.totalPages} @click=${() => this.turn(p.page + 1)}>${t("leads.next")}</button>
    </nav>`;
  }
}

defineOnce("bd-leads-page", BdLeadsPage);
