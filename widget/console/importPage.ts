import { html, nothing, type PropertyDeclarations } from "lit";
import type { ImportFileResult } from "../../src/router/directory/directoryImportFile.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { sendInParts, type ImportFileRequest, type ImportTotals } from "./importParts.ts";

type Kind = ImportFileRequest["kind"];
type Step = "choose" | "checking" | "checked" | "importing" | "imported";

/**
 * <bd-import-page>: the operator uploads a CSV or NDJSON file of brokers or reviews. It is first
 * checked (a dry run through the import's engine: the counts and each refused row with its line,
 * field and message), then imported on Confirm; both go up in parts with a progress bar
 * (importParts.ts). The file is read in this browser; nothing is written before Confirm.
 */
export class BdImportPage extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, step: { state: true }, kind: { state: true }, done: { state: true }, totals: { state: true }, fileError: { state: true } };
  declare step: Step;
  declare kind: Kind;
  /** Share of the file sent, 0 to 1. */
  declare done: number;
  declare totals: ImportTotals | undefined;
  declare fileError: string | undefined;
  private file: { name: string; text: string } | undefined;

  constructor() {
    super();
    this.step = "choose";
    this.kind = "brokers";
    this.done = 0;
  }

  private async check(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const picked = this.renderRoot.querySelector<HTMLInputElement>("#file")?.files?.[0];
    this.fileError = picked ? undefined : this.t("imp.noFile");
    if (!picked) return this.renderRoot.querySelector<HTMLInputElement>("#file")?.focus();
    this.file = { name: picked.name, text: await picked.text() };
    await this.run(true);
  }

  /** A dry run (the check) or the import itself, part by part. */
  private async run(dryRun: boolean): Promise<void> {
    const file = this.file;
    if (!file) return;
    const t = this.t;
    this.step = dryRun ? "checking" : "importing";
    this.done = 0;
    this.error = undefined;
    try {
      const send = (request: ImportFileRequest) => this.api.send<ImportFileResult>("POST", "/console/api/directory/import-file", request);
      this.totals = await sendInParts(file, { kind: this.kind, dryRun }, send, (done) => (this.done = done));
      this.step = dryRun ? "checked" : "imported";
      const { created, updated, unchanged, failed } = this.totals;
      this.announce(t(dryRun ? "imp.checked" : "imp.imported", { created, updated, unchanged, failed }));
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>("#report")?.focus());
    } catch (error) {
      this.error = error;
      this.step = dryRun ? "choose" : "checked";
    }
  }

  private reset(): void {
    this.step = "choose";
    this.totals = undefined;
    this.file = undefined;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>("#file")?.focus());
  }

  override render() {
    const t = this.t;
    const working = this.step === "checking" || this.step === "importing";
    return html`
      <h1 tabindex="-1">${t("imp.heading")}</h1>
      <p class="muted">${t("imp.intro")}</p>
      ${this.error ? this.renderProblem(this.error) : nothing}
      ${this.step === "choose" ? this.renderChoose() : nothing}
      ${working
        ? html`<div class="card">
            <label for="progress">${t(this.step === "checking" ? "imp.checking" : "imp.importing", { name: this.file?.name ?? "" })}</label>
            <progress id="progress" max="100" .value=${Math.round(this.done * 100)}>${Math.round(this.done * 100)} %</progress>
          </div>`
        : nothing}
      ${this.totals && (this.step === "checked" || this.step === "imported") ? this.renderReport(this.totals) : nothing}
    `;
  }

  private renderChoose() {
    const t = this.t;
    return html`<form class="card" novalidate @submit=${this.check}>
      <fieldset>
        <legend>${t("imp.kind")}</legend>
        <div class="checks">
          ${(["brokers", "reviews"] as const).map(
            (kind) => html`<label><input type="radio" name="kind" value=${kind} .checked=${this.kind === kind} @change=${() => (this.kind = kind)} /> ${t(`imp.${kind}`)}</label>`,
          )}
        </div>
      </fieldset>
      <div class="field">
        <label for="file">${t("imp.file")}</label>
        <input id="file" type="file" accept=".csv,.ndjson,.jsonl,.json,text/csv,application/x-ndjson" aria-invalid=${this.fileError ? "true" : nothing} aria-describedby=${this.fileError ? "e-file" : nothing} />
        ${this.fileError ? html`<p class="error" id="e-file">${this.fileError}</p>` : nothing}
      </div>
      <button type="submit">${t("imp.check")}</button>
    </form>`;
  }

  private renderReport(totals: ImportTotals) {
    const t = this.t;
    const checked = this.step === "checked";
    const valid = totals.created + totals.updated + totals.unchanged;
    return html`<section class="card" aria-labelledby="report">
      <h2 id="report" tabindex="-1">${t(checked ? "imp.report" : "imp.done", { name: this.file?.name ?? "" })}</h2>
      <div class="table-wrap"><table>
        <caption>${t("imp.countsCaption")}</caption>
        <thead><tr>${(["created", "updated", "unchanged", "failed"] as const).map((name) => html`<th scope="col">${t(`imp.${name}`)}</th>`)}</tr></thead>
        <tbody><tr>${(["created", "updated", "unchanged", "failed"] as const).map((name) => html`<td data-count=${name}>${totals[name]}</td>`)}</tr></tbody>
      </table></div>
      ${totals.errors.length === 0
        ? html`<p>${t("imp.noErrors")}</p>`
        : html`<div class="table-wrap"><table>
            <caption>${t("imp.errorsCaption")}</caption>
            <thead><tr><th scope="col">${t("imp.line")}</th><th scope="col">${t("imp.field")}</th><th scope="col">${t("imp.message")}</th></tr></thead>
            <tbody>${totals.errors.map((e) => html`<tr><td>${e.line}</td><td><code>${e.field || "—"}</code></td><td>${e.message}</td></tr>`)}</tbody>
          </table></div>`}
      <div class="actions">
        ${checked && valid > 0 ? html`<button @click=${() => this.run(false)}>${t("imp.confirm", { n: valid })}</button>` : nothing}
        <button class="secondary" @click=${() => this.reset()}>${t("imp.again")}</button>
      </div>
      ${checked && valid > 0 && totals.failed > 0 ? html`<p class="hint">${t("imp.confirmHint")}</p>` : nothing}
    </section>`;
  }
}

defineOnce("bd-import-page", BdImportPage);
