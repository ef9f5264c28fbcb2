import { css, html, nothing, type PropertyDeclarations } from "lit";
import { ApiError, apiRequest, SubmissionKeys } from "./api.ts";
import { BrokerElement, defineOnce } from "./base.ts";
import { QUOTE_LINES, quoteFields, toQuoteLine, type FieldRule, type QuoteLine } from "./fields.ts";
import { changedControl, focusFirstInvalid, renderField, type FieldView } from "./formField.ts";
import { formatMoney } from "./format.ts";
import { isMessageKey, isSingular, lineLabel } from "./i18n.ts";
import "./leadForm.ts";
import { MAX_COMPARED, quoteComparisonStyles } from "./quoteComparison.ts";
import { priceText } from "./quotePrice.ts";
import { quoteResultsStyles, renderQuoteResults } from "./quoteResults.ts";
import { findProvince, PROVINCES } from "./provinces.ts";
import type { CarrierQuote, QuoteResult } from "./types.ts";
import { parseField, parsePostalCode } from "./validate.ts";

type Phase = "form" | "sending" | "results";

/**
 * <broker-quote-form>: the fields for the chosen insurance line (switching with it),
 * client-side checks mirroring the server's, POST /embed/quotes, the results list, and an
 * optional lead step through <broker-lead-form>.
 */
export class BrokerQuoteForm extends BrokerElement {
  static override properties: PropertyDeclarations = {
    insuranceType: { attribute: "insurance-type" },
    province: {},
    broker: {},
    values: { state: true },
    errors: { state: true },
    phase: { state: true },
    result: { state: true },
    error: { state: true },
    leadOpen: { state: true },
    leadNotes: { state: true },
    compared: { state: true },
    comparing: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    quoteResultsStyles,
    quoteComparisonStyles,
    css`
      fieldset {
        border: 0;
        padding: 0;
        margin: 1rem 0 0;
        min-width: 0;
      }
      legend {
        font-weight: 700;
        padding: 0;
        margin-bottom: 0.5rem;
      }
      broker-lead-form {
        --bw-padding: 0;
        margin-top: 1.25rem;
      }
    `,
  ];

  declare insuranceType: string | undefined;
  declare province: string | undefined;
  declare broker: string | undefined;
  declare values: Record<string, string>;
  declare errors: Record<string, string>;
  declare phase: Phase;
  declare result: QuoteResult | undefined;
  declare error: unknown;
  declare leadOpen: boolean;
  declare leadNotes: string;
  /** carrierSlugs ticked for the side-by-side comparison (at most MAX_COMPARED). */
  declare compared: readonly string[];
  declare comparing: boolean;
  /** The Idempotency-Key of each quote request this form sends: a double click or a retry makes one quote. */
  private readonly submissions = new SubmissionKeys();

  constructor() {
    super();
    this.values = {};
    this.errors = {};
    this.phase = "form";
    this.leadOpen = false;
    this.leadNotes = "";
    this.compared = [];
    this.comparing = false;
  }

  private get line(): QuoteLine {
    return toQuoteLine(this.values.insuranceType) ?? toQuoteLine(this.insuranceType) ?? "Auto";
  }

  private get provinceCode(): string {
    return this.values.province ?? findProvince(this.province)?.code ?? "";
  }

  private onInput(event: Event): void {
    const { name, value } = changedControl(event);
    if (!name) return;
    this.values = { ...this.values, [name]: value };
    if (this.errors[name]) this.errors = { ...this.errors, [name]: "" };
  }

  /** Checks every field; returns the request body, or undefined after showing the errors. */
  private collect(): object | undefined {
    const { t, language } = this;
    const errors: Record<string, string> = {};
    const details: Record<string, unknown> = {};
    if (!this.provinceCode) errors.province = t("error.required");
    const postal = parsePostalCode(this.values.postalCode ?? "", this.provinceCode, t, language);
    if (postal.error) errors.postalCode = postal.error;
    for (const rule of quoteFields()[this.line]) {
      const parsed = parseField(rule, this.values[`details.${rule.name}`] ?? "", t, language);
      if (parsed.error) errors[`details.${rule.name}`] = parsed.error;
      else if (parsed.value !== undefined) details[rule.name] = parsed.value;
    }
    this.errors = errors;
    const count = Object.keys(errors).length;
    if (count === 0) return { insuranceType: this.line, province: this.provinceCode, postalCode: postal.value, details };
    this.announce(t(isSingular(language, count) ? "fixOne" : "fixMany", { n: count }));
    void this.updateComplete.then(() => focusFirstInvalid(this.renderRoot));
    return undefined;
  }

  private async onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    this.error = undefined;
    const body = this.collect();
    if (!body) return;
    this.phase = "sending";
    this.announce(this.t("gettingQuotes"));
    try {
      const answer = await apiRequest<{ data: QuoteResult }>(this.apiConfig(), "/embed/quotes", { method: "POST", body, idempotencyKey: this.submissions.keyFor(body) });
      this.submissions.succeeded();
      if (!Array.isArray(answer?.data?.quotes)) throw new ApiError(502, "unexpected answer from /embed/quotes");
      this.result = answer.data;
      this.phase = "results";
      this.leadOpen = false;
      this.compared = [];
      this.comparing = false;
      const n = answer.data.quotes.length;
      this.announce(n === 0 ? this.t("noQuotes") : this.t(isSingular(this.language, n) ? "quotesOne" : "quotesMany", { n }));
      this.emit("broker-widget:quote", { ...answer.data, province: this.provinceCode });
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>("#results")?.focus();
    } catch (error) {
      this.phase = "form";
      this.showFailure(error);
    }
  }

  /** A 422 puts each server message beside the field its path names (e.g. details.driverAge). */
  private showFailure(error: unknown): void {
    if (error instanceof ApiError && error.status === 422 && error.issues.length > 0) {
      const errors: Record<string, string> = {};
      const unplaced: string[] = [];
      const known = new Set(["insuranceType", "province", "postalCode", ...quoteFields()[this.line].map((r) => `details.${r.name}`)]);
      for (const issue of error.issues) {
        if (known.has(issue.path)) errors[issue.path] = issue.message;
        else unplaced.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
      }
      this.errors = errors;
      this.error = unplaced.length ? new ApiError(422, unplaced.join("; ")) : undefined;
      this.announce(error.message);
      void this.updateComplete.then(() => focusFirstInvalid(this.renderRoot));
      return;
    }
    this.error = error;
    this.announce(this.problemMessage(error));
  }

  private openLead(quote?: CarrierQuote): void {
    if (quote) {
      const detail = { kind: "quote", quoteId: this.result?.quoteId, quote };
      // A host that handles the choice itself calls preventDefault(); then we stay out of the way.
      if (!this.emit("broker-widget:select", detail, true)) return;
      const line = this.result?.insuranceLine ?? this.line;
      this.leadNotes = this.t("interestedIn", { carrier: quote.carrier, price: priceText(this.t, this.language, line, quote) });
    }
    this.leadOpen = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>("broker-lead-form")?.focus());
  }

  override render() {
    const result = this.result;
    if (this.phase !== "results" || !result) return html`${this.renderLive()}${this.renderForm()}`;
    return html`${this.renderLive()}${renderQuoteResults({
      t: this.t,
      lang: this.language,
      result,
      onContact: (quote) => this.openLead(quote),
      onEdit: () => (this.phase = "form"),
      compared: this.compared,
      onToggleCompare: (slug) => this.toggleCompare(slug),
      comparing: this.comparing,
      onCompare: (open) => void this.showComparison(open),
      lead: this.leadOpen
        ? html`<broker-lead-form
            exportparts="lead-form, lead-done, field, label, input, select, error, button, problem"
            .apiKey=${this.apiKey}
            .apiBase=${this.apiBase}
            .theme=${this.theme}
            lang=${this.language}
            .insuranceType=${result.insuranceType}
            .quoteId=${result.quoteId}
            .broker=${this.broker}
            .notes=${this.leadNotes}
          ></broker-lead-form>`
        : undefined,
    })}`;
  }

  private toggleCompare(slug: string): void {
    const compared = this.compared.includes(slug) ? this.compared.filter((s) => s !== slug) : [...this.compared, slug].slice(0, MAX_COMPARED);
    this.compared = compared;
    if (compared.length < 2) this.comparing = false;
  }

  /** Opening moves focus to the table's heading; closing, back to the Compare button's place (the results heading). */
  private async showComparison(open: boolean): Promise<void> {
    this.comparing = open;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(open ? "#comparison-heading" : "[part~=compare]")?.focus();
  }

  private fieldView(rule: FieldRule): FieldView {
    const { t, language } = this;
    const name = `details.${rule.name}`;
    const labelKey = `field.${rule.name}`;
    const hintKey = `hint.${rule.name}`;
    const base = {
      name,
      label: (isMessageKey(labelKey) ? t(labelKey) : rule.name) + (rule.required ? "" : ` ${t("optional")}`),
      value: this.values[name] ?? "",
      hint: isMessageKey(hintKey) ? t(hintKey) : undefined,
      error: this.errors[name] || undefined,
    };
    if (rule.kind === "bool") {
      const options = [
        { value: "", label: t("choose") },
        { value: "yes", label: t("yes") },
        { value: "no", label: t("no") },
      ];
      return { ...base, control: "select", options };
    }
    if (rule.kind === "choice") {
      const label = (option: string | number) => {
        if (rule.name === "deductible") return formatMoney(language, Number(option));
        if (rule.name === "termYears") return t("years", { n: option });
        const key = `option.${option}`;
        return isMessageKey(key) ? t(key) : String(option);
      };
      const empty = { value: "", label: rule.required ? t("choose") : t("defaultDeductible") };
      return { ...base, control: "select", options: [empty, ...rule.options.map((o) => ({ value: String(o), label: label(o) }))] };
    }
    return { ...base, control: "text", inputmode: rule.kind === "text" ? "text" : "numeric", autocomplete: "off" };
  }

  private renderForm() {
    const { t, language } = this;
    const sending = this.phase === "sending";
    const provinceOptions = [
      { value: "", label: t("choose") },
      ...PROVINCES.map((p) => ({ value: p.code, label: language === "fr" ? p.fr : p.en })),
    ];
    return html`<form part="form" novalidate aria-busy=${sending ? "true" : "false"} @input=${this.onInput} @change=${this.onInput} @submit=${this.onSubmit}>
      ${this.error ? this.renderFormProblem() : nothing}
      <div class="grid">
        ${renderField({
          name: "insuranceType",
          label: t("insuranceType"),
          value: this.line,
          error: this.errors.insuranceType || undefined,
          control: "select",
          options: QUOTE_LINES.map((line) => ({ value: line, label: lineLabel(t, line) })),
        })}
        ${renderField({ name: "province", label: t("province"), value: this.provinceCode, error: this.errors.province || undefined, control: "select", options: provinceOptions })}
        ${renderField({
          name: "postalCode",
          label: t("postalCode"),
          value: this.values.postalCode ?? "",
          hint: t("postalHint"),
          error: this.errors.postalCode || undefined,
          control: "text",
          autocomplete: "postal-code",
        })}
      </div>
      <fieldset>
        <legend>${lineLabel(t, this.line)}</legend>
        <div class="grid">${quoteFields()[this.line].map((rule) => renderField(this.fieldView(rule)))}</div>
      </fieldset>
      <div class="actions">
        <button type="submit" part="button submit" ?disabled=${sending}>${sending ? t("gettingQuotes") : t("getQuotes")}</button>
      </div>
    </form>`;
  }

  private renderFormProblem() {
    const error = this.error;
    if (error instanceof ApiError && error.status === 422) {
      return html`<div class="notice problem" role="alert" part="problem"><p>${error.message}</p></div>`;
    }
    return this.renderProblem(error);
  }
}

defineOnce("broker-quote-form", BrokerQuoteForm);
