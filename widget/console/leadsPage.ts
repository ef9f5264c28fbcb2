import { html, nothing } from "lit";
import { INSURANCE_LINES } from "../../src/domain/insuranceLines.ts";
import { LEAD_SOURCES, LEAD_STATUSES } from "../../src/domain/leadVocabulary.ts";
import type { LeadView } from "../../src/schemas/lead.ts";
import { formatCanadianPhone } from "../../src/domain/phone.ts";
import { withQuery } from "./api.ts";
import { insuranceLabel } from "./insuranceLabel.ts";
import { defineOnce } from "./consoleElement.ts";
import { PagedListPage } from "./pagedListPage.ts";
import { formatWhen } from "./i18n.ts";

type Filters = {
  status: string;
  insuranceType: string;
  source: string;
  q: string;
};

/**
 * <bd-leads-page>: the workspace's CRM inbox, newest first, with paging, filters (status,
 * insurance type, source), search over name and e-mail, and Export CSV of the current filter.
 * The filters live in the URL's query, so a filtered inbox can be bookmarked and reloaded.
 */
export class BdLeadsPage extends PagedListPage<LeadView, Filters> {
  protected readonly route = "/console/leads";
  protected readonly endpoint = "/console/api/leads";
  protected readonly countKey = "leads.count";

  constructor() {
    super(["status", "insuranceType", "source", "q"]);
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
      ${this.rows === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.rows?.length === 0 ? html`<p>${t("leads.empty")}</p>` : nothing}
      ${this.rows && this.rows.length > 0 ? this.renderTable(this.rows) : nothing}
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
}

defineOnce("bd-leads-page", BdLeadsPage);
