import { css, html, nothing, type PropertyDeclarations } from "lit";
import { ApiError, apiRequest, SubmissionKeys } from "./api.ts";
import { BrokerElement, defineOnce } from "./base.ts";
import { toQuoteLine } from "./fields.ts";
import { changedControl, focusFirstInvalid, renderField } from "./formField.ts";
import { isSingular } from "./i18n.ts";
import type { Lead } from "./types.ts";
import { parseEmail, parsePhone, parseRequired, type Parsed } from "./validate.ts";

const FIELDS = ["name", "email", "phone", "notes"] as const;

/**
 * <broker-lead-form>: "have a broker contact me". Used by the quote form after results
 * (with quote-id), and usable alone on a broker's page (with broker="slug").
 */
export class BrokerLeadForm extends BrokerElement {
  static override shadowRootOptions = { ...BrokerElement.shadowRootOptions, delegatesFocus: true };
  static override properties: PropertyDeclarations = {
    insuranceType: { attribute: "insurance-type" },
    broker: {},
    quoteId: { attribute: "quote-id" },
    notes: {},
    values: { state: true },
    errors: { state: true },
    sending: { state: true },
    lead: { state: true },
    error: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    css`
      .wide {
        grid-column: 1 / -1;
      }
    `,
  ];

  declare insuranceType: string | undefined;
  declare broker: string | undefined;
  declare quoteId: string | undefined;
  declare notes: string | undefined;
  declare values: Record<string, string>;
  declare errors: Record<string, string>;
  declare sending: boolean;
  declare lead: Lead | undefined;
  declare error: unknown;
  /** The Idempotency-Key of each lead this form sends: a double click or a retry makes one lead. */
  private readonly submissions = new SubmissionKeys();

  constructor() {
    super();
    this.values = {};
    this.errors = {};
    this.sending = false;
  }

  private value(name: string): string {
    return this.values[name] ?? (name === "notes" ? (this.notes ?? "") : "");
  }

  private onInput(event: Event): void {
    const { name, value } = changedControl(event);
    if (!name) return;
    this.values = { ...this.values, [name]: value };
    if (this.errors[name]) this.errors = { ...this.errors, [name]: "" };
  }

  private async onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const t = this.t;
    const checks: Record<string, Parsed> = {
      name: parseRequired(this.value("name"), t),
      email: parseEmail(this.value("email"), t),
      phone: parsePhone(this.value("phone"), t),
    };
    const errors: Record<string, string> = {};
    for (const [name, parsed] of Object.entries(checks)) if (parsed.error) errors[name] = parsed.error;
    this.errors = errors;
    this.error = undefined;
    const count = Object.keys(errors).length;
    if (count > 0) {
      this.announce(t(isSingular(this.language, count) ? "fixOne" : "fixMany", { n: count }));
      await this.updateComplete;
      focusFirstInvalid(this.renderRoot);
      return;
    }
    const notes = this.value("notes").trim();
    const body = {
      name: checks.name?.value,
      email: checks.email?.value,
      phone: checks.phone?.value,
      insuranceType: toQuoteLine(this.insuranceType) ?? this.insuranceType ?? "Auto",
      ...(notes ? { notes } : {}),
      ...(this.broker ? { brokerSlug: this.broker } : {}),
      ...(this.quoteId ? { quoteId: this.quoteId } : {}),
    };
    this.sending = true;
    this.announce(t("sending"));
    try {
      const answer = await apiRequest<{ data: Lead }>(this.apiConfig(), "/embed/leads", { method: "POST", body, idempotencyKey: this.submissions.keyFor(body) });
      this.submissions.succeeded();
      this.lead = answer.data;
      this.announce(t("leadThanks"));
      this.emit("broker-widget:lead", { lead: answer.data, quoteId: this.quoteId, brokerSlug: this.broker });
    } catch (error) {
      this.showFailure(error);
    } finally {
      this.sending = false;
    }
  }

  /** A 422 puts each server message beside the field it names; anything else is a notice. */
  private showFailure(error: unknown): void {
    if (error instanceof ApiError && error.status === 422 && error.issues.length > 0) {
      const errors: Record<string, string> = {};
      const unplaced: string[] = [];
      for (const issue of error.issues) {
        if ((FIELDS as readonly string[]).includes(issue.path)) errors[issue.path] = issue.message;
        else unplaced.push(`${issue.path}: ${issue.message}`);
      }
      this.errors = errors;
      if (unplaced.length) this.error = new ApiError(422, unplaced.join("; "));
      this.announce(error.message);
      void this.updateComplete.then(() => focusFirstInvalid(this.renderRoot));
      return;
    }
    this.error = error;
    this.announce(this.problemMessage(error));
  }

  override render() {
    const { t } = this;
    if (this.lead) {
      return html`${this.renderLive()}<p class="notice" part="lead-done">${t("leadThanks")}</p>`;
    }
    const field = (name: (typeof FIELDS)[number], extra: { type?: "email" | "tel"; autocomplete: string; inputmode?: "email" | "tel" }) =>
      renderField({ name, label: t(name), value: this.value(name), error: this.errors[name] || undefined, control: "text", ...extra });
    return html`${this.renderLive()}
      <form part="lead-form" novalidate @input=${this.onInput} @change=${this.onInput} @submit=${this.onSubmit}>
        <h3>${t("leadHeading")}</h3>
        ${this.error ? this.renderLeadProblem() : nothing}
        <div class="grid">
          ${field("name", { autocomplete: "name" })} ${field("email", { type: "email", autocomplete: "email", inputmode: "email" })}
          ${field("phone", { type: "tel", autocomplete: "tel", inputmode: "tel" })}
          <div class="wide">
            ${renderField({ name: "notes", label: `${t("notes")} ${t("optional")}`, value: this.value("notes"), error: this.errors.notes || undefined, control: "textarea" })}
          </div>
        </div>
        <div class="actions">
          <button type="submit" part="button" ?disabled=${this.sending}>${this.sending ? t("sending") : t("sendRequest")}</button>
        </div>
      </form>`;
  }

  private renderLeadProblem() {
    const error = this.error;
    if (error instanceof ApiError && error.status === 422) {
      return html`<div class="notice problem" role="alert" part="problem"><p>${error.message}</p></div>`;
    }
    return this.renderProblem(error);
  }
}

defineOnce("broker-lead-form", BrokerLeadForm);
