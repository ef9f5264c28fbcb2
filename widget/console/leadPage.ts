import { html, nothing, type PropertyDeclarations } from "lit";
import type { LeadDetail } from "../../src/router/leads/leadDetail.ts";
import { LEAD_STATUSES, MAX_NOTES_LENGTH } from "../../src/domain/leadVocabulary.ts";
import { formatCanadianPhone } from "../../src/domain/phone.ts";
import { formatMoney } from "../format.ts";
import { ConsoleElement, defineOnce, issuesByField } from "./consoleElement.ts";
import { formatWhen } from "./i18n.ts";
import { insuranceLabel } from "./insuranceLabel.ts";
import { quoteDetailsList } from "./quoteDetailsList.ts";

/**
 * <bd-lead-page lead-id>: one lead with everything it carries (contact, message, the broker
 * asked for, the linked quote and its offers) and its history, oldest first. A change (status
 * and/or note) is appended; the page then shows the history the server now holds, so a change
 * made meanwhile in another tab appears too.
 */
export class BdLeadPage extends ConsoleElement {
  static override properties: PropertyDeclarations = {
    ...ConsoleElement.properties,
    leadId: { attribute: "lead-id" },
    lead: { state: true },
    errors: { state: true },
    saving: { state: true },
  };
  declare leadId: string;
  declare lead: LeadDetail | undefined;
  declare errors: Record<string, string>;
  declare saving: boolean;

  constructor() {
    super();
    this.errors = {};
    this.saving = false;
  }


  protected override load(): Promise<void> {
    return this.attempt(async () => {
      this.lead = await this.api.get<LeadDetail>(`/console/api/leads/${encodeURIComponent(this.leadId)}`);
    });
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const status = String(data.get("status") ?? "");
    const note = String(data.get("note") ?? "").trim();
    const t = this.t;
    this.errors = {};
    if (!status && !note) this.errors = { note: t("lead.nothing") };
    else if (note.length > MAX_NOTES_LENGTH) this.errors = { note: t("error.tooLong", { max: MAX_NOTES_LENGTH }) };
    if (Object.keys(this.errors).length > 0) return this.focusError();
    this.saving = true;
    try {
      this.lead = await this.api.send<LeadDetail>("PATCH", `/console/api/leads/${encodeURIComponent(this.leadId)}`, { status: status || undefined, note: note || undefined });
      form.reset();
      this.announce(t("lead.saved", { status: t(`lead.status.${this.lead.status}`) }));
    } catch (error) {
      this.errors = issuesByField(error);
      if (Object.keys(this.errors).length === 0) this.error = error;
      else this.focusError();
    } finally {
      this.saving = false;
    }
  }

  private focusError(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  override render() {
    const t = this.t;
    const back = html`<p>${this.link("/console/leads", `← ${t("lead.back")}`)}</p>`;
    if (this.error && !this.lead) return html`${back}${this.renderProblem(this.error, () => this.load())}`;
    const lead = this.lead;
    if (!lead) return html`${back}<p>${t("loading")}</p>`;
    return html`${back}
      <h1 tabindex="-1">${lead.name} <span class="badge ${lead.status}">${t(`lead.status.${lead.status}`)}</span></h1>
      ${this.error ? this.renderProblem(this.error) : nothing}
      <section class="card" aria-labelledby="contact">
        <h2 id="contact">${t("lead.contact")}</h2>
        <p><a href="mailto:${lead.email}">${lead.email}</a> · <a href="tel:${lead.phone}">${formatCanadianPhone(lead.phone)}</a></p>
        <p>${t("col.type")}: ${insuranceLabel(this.lang, lead.insuranceType)} · ${t("col.source")}: ${t(`source.${lead.source}`)} · ${formatWhen(this.lang, lead.createdAt, "")}</p>
        ${lead.notes ? html`<h3>${t("lead.notes")}</h3><p>${lead.notes}</p>` : nothing}
        ${lead.broker
          ? html`<h3>${t("lead.broker")}</h3><p>${lead.broker.name}${lead.broker.phone ? ` · ${formatCanadianPhone(lead.broker.phone)}` : ""}${lead.broker.email ? ` · ${lead.broker.email}` : ""}</p>`
          : nothing}
      </section>
      ${lead.quote ? this.renderQuote(lead.quote) : nothing}
      <section class="card" aria-labelledby="history">
        <h2 id="history">${t("lead.history")}</h2>
        <ol>${lead.history.map(
          (entry) => html`<li><strong>${t(`lead.status.${entry.status}`)}</strong> — ${formatWhen(this.lang, entry.at, "")}
            <span class="muted">${t("lead.by", { actor: entry.actor })}</span>${entry.note ? html`<br />${entry.note}` : nothing}</li>`,
        )}</ol>
      </section>
      <form class="card" @submit=${this.save} novalidate>
        <h2>${t("lead.change")}</h2>
        <div class="field">
          <label for="status">${t("lead.newStatus")}</label>
          <select id="status" name="status">
            <option value="">${t("lead.keepStatus", { status: t(`lead.status.${lead.status}`) })}</option>
            ${LEAD_STATUSES.map((s) => html`<option value=${s}>${t(`lead.status.${s}`)}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="note">${t("lead.note")}</label>
          <textarea id="note" name="note" rows="3" aria-invalid=${this.errors.note ? "true" : nothing} aria-describedby=${this.errors.note ? "e-note" : nothing}></textarea>
          ${this.errors.note ? html`<p class="error" id="e-note">${this.errors.note}</p>` : nothing}
          ${this.errors.status ? html`<p class="error">${this.errors.status}</p>` : nothing}
        </div>
        <button type="submit" ?disabled=${this.saving}>${t("save")}</button>
      </form>`;
  }

  private renderQuote(quote: NonNullable<LeadDetail["quote"]>) {
    const t = this.t;
    const line = insuranceLabel(this.lang, quote.insuranceLine);
    return html`<section class="card" aria-labelledby="quote">
      <h2 id="quote">${t("lead.quote")}: ${line} · ${quote.province} ${quote.postalCode}</h2>
      <h3 id="details">${t("lead.details")}</h3>
      <div role="group" aria-labelledby="details">${quoteDetailsList(this.lang, quote.insuranceLine, quote.details)}</div>
      <div class="table-wrap"><table>
        <caption>${t("lead.offers")}</caption>
        <thead><tr><th scope="col">${t("lead.carrier")}</th><th scope="col">${t("lead.monthly")}</th><th scope="col">${t("lead.annual")}</th></tr></thead>
        <tbody>${quote.quotes.map(
          (offer) => html`<tr><th scope="row">${offer.carrier}</th><td>${formatMoney(this.lang, offer.monthlyPremium)}</td><td>${formatMoney(this.lang, offer.annualPremium)}</td></tr>`,
        )}</tbody>
      </table></div>
    </section>`;
  }
}

defineOnce("bd-lead-page", BdLeadPage);
