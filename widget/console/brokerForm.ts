import { html, nothing, type PropertyDeclarations } from "lit";
import { INSURANCE_LINES } from "../../src/domain/insuranceLines.ts";
import { TEAM_SIZES } from "../../src/domain/teamSize.ts";
import type { DirectoryBroker } from "../../src/router/directory/directoryViews.ts";
import { ApiError } from "./api.ts";
import { changedFields, readBrokerForm, type OfficeDraft } from "./brokerFormData.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import type { ConsoleKey } from "./i18n.ts";
import { officeFieldset } from "./officeFieldset.ts";

/** Fired with the broker as saved. */
export class BrokerSavedEvent extends Event {
  constructor(readonly broker: DirectoryBroker) {
    super("broker-saved", { bubbles: true, composed: true });
  }
}

/**
 * <bd-broker-form>: every field of a broker and its offices, saved with PATCH
 * (directory.updateBroker, only the fields that changed). Validation is the server's, the
 * import's own rules: each refused field of the 422 answer is shown beside its field (an
 * office's as `locations.N.field`), and focus goes to the first.
 */
export class BdBrokerForm extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, broker: { attribute: false }, offices: { state: true }, errors: { state: true }, saving: { state: true } };
  declare broker: DirectoryBroker;
  declare offices: OfficeDraft[];
  declare errors: Record<string, string>;
  declare saving: boolean;

  constructor() {
    super();
    this.offices = [];
    this.errors = {};
    this.saving = false;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    // A broker from the server (first shown, or saved) resets the office drafts to what is stored.
    if (changed.has("broker")) this.offices = this.broker.locations.map((o) => ({ ...o }));
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const t = this.t;
    const form = event.target as HTMLFormElement;
    const { fields, reason } = readBrokerForm(form, this.offices);
    const changes = changedFields(this.broker, fields);
    this.errors = {};
    if (Object.keys(changes).length === 0) return this.announce(t("broker.unchanged"));
    this.saving = true;
    try {
      const saved = await this.api.send<DirectoryBroker>("PATCH", `/console/api/directory/brokers/${encodeURIComponent(this.broker.id)}`, { ...changes, reason: reason || undefined });
      this.announce(t("broker.saved"));
      // The reason was for this change; the next one gives its own.
      form.querySelector<HTMLInputElement>("#b-reason")!.value = "";
      this.dispatchEvent(new BrokerSavedEvent(saved));
    } catch (error) {
      this.errors = fieldErrors(error);
      if (Object.keys(this.errors).length === 0) this.error = error;
      else {
        this.announce(t("fixFields"));
        void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      }
    } finally {
      this.saving = false;
    }
  }

  /** A labelled input with its inline message (`name` is the record's field, and the input's id). */
  private input(name: string, label: ConsoleKey, value: string, options: { type?: string; hint?: ConsoleKey; required?: boolean } = {}) {
    const error = this.errors[name];
    return html`<div class="field">
      <label for="b-${name}">${this.t(label)}</label>
      <input id="b-${name}" name=${name} type=${options.type ?? "text"} .value=${value} ?required=${options.required ?? false}
        aria-invalid=${error ? "true" : nothing} aria-describedby=${error ? `e-${name}` : options.hint ? `h-${name}` : nothing} />
      ${options.hint ? html`<span class="hint" id="h-${name}">${this.t(options.hint)}</span>` : nothing}
      ${error ? html`<p class="error" id="e-${name}">${error}</p>` : nothing}
    </div>`;
  }

  override render() {
    const t = this.t;
    const b = this.broker;
    const err = (name: string) => (this.errors[name] ? html`<p class="error" id="e-${name}">${this.errors[name]}</p>` : nothing);
    return html`<form class="card" novalidate @submit=${this.save}>
      <h2>${t("broker.details")}</h2>
      ${this.error ? this.renderProblem(this.error) : nothing}
      <div class="grid">
        ${this.input("name", "field.name", b.name, { required: true })} ${this.input("slug", "field.slug", b.slug)}
        ${this.input("externalId", "field.externalId", b.externalId ?? "")} ${this.input("licenseNumber", "field.licenseNumber", b.licenseNumber ?? "")}
        ${this.input("email", "field.email", b.email ?? "", { type: "email" })} ${this.input("phone", "field.phone", b.phone ?? "", { type: "tel" })}
        ${this.input("website", "field.website", b.website ?? "", { type: "url" })}
        ${this.input("foundingYear", "field.foundingYear", b.foundingYear === null ? "" : String(b.foundingYear), { type: "text" })}
        <div class="field">
          <label for="b-teamSize">${t("field.teamSize")}</label>
          <select id="b-teamSize" name="teamSize" aria-invalid=${this.errors.teamSize ? "true" : nothing}>
            ${TEAM_SIZES.map((size) => html`<option value=${size} ?selected=${b.teamSize === size}>${size}</option>`)}
          </select>${err("teamSize")}
        </div>
        <div class="field check"><label><input type="checkbox" name="isVerified" .checked=${b.isVerified} /> ${t("field.isVerified")}</label></div>
      </div>
      <div class="field">
        <label for="b-description">${t("field.description")}</label>
        <textarea id="b-description" name="description" rows="4" .value=${b.description} aria-invalid=${this.errors.description ? "true" : nothing}></textarea>${err("description")}
      </div>
      <fieldset aria-describedby=${this.errors.insuranceLines ? "e-insuranceLines" : nothing}>
        <legend>${t("field.insuranceLines")}</legend>
        <div class="checks">${INSURANCE_LINES.map((line) => html`<label><input type="checkbox" name="insuranceLines" value=${line} .checked=${b.insuranceLines.includes(line)} /> ${line}</label>`)}</div>
        ${err("insuranceLines")}
      </fieldset>
      <div class="grid">
        ${this.input("specialties", "field.specialties", b.specialties.join("; "), { hint: "broker.listHint" })}
        ${this.input("languages", "field.languages", b.languages.join("; "), { hint: "broker.listHint" })}
      </div>
      <h3>${t("broker.offices")}</h3>
      ${err("locations")}
      ${this.offices.map((office, index) =>
        officeFieldset({
          t,
          lang: this.lang,
          office,
          index,
          count: this.offices.length,
          errors: this.errors,
          changed: (next) => (this.offices = this.offices.map((o, i) => (i === index ? next : next.isPrimary ? { ...o, isPrimary: false } : o))),
          remove: () => (this.offices = this.offices.filter((_, i) => i !== index)),
        }),
      )}
      <p><button type="button" class="secondary" @click=${() => (this.offices = [...this.offices, { address: "", city: "", province: "ON", postalCode: "", phone: null, latitude: null, longitude: null, isPrimary: this.offices.length === 0 }])}>${t("broker.addOffice")}</button></p>
      ${this.input("reason", "broker.reason", "")}
      <button type="submit" ?disabled=${this.saving}>${t("save")}</button>
    </form>`;
  }
}

/** The 422 answer's issues by field: `email`, `insuranceLines` (of `insuranceLines.2`), `locations.1.postalCode`. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  for (const issue of error.issues) {
    const parts = issue.path.split(".");
    const key = parts[0] === "locations" && parts.length >= 3 ? parts.slice(0, 3).join(".") : (parts[0] ?? "");
    out[key] ??= issue.message;
  }
  return out;
}

defineOnce("bd-broker-form", BdBrokerForm);
