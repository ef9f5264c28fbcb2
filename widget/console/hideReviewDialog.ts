import { html, nothing, type PropertyDeclarations } from "lit";
import { HIDE_REASONS, type HideReason } from "../../src/domain/directoryStates.ts";
import type { DirectoryReview } from "../../src/router/directory/directoryViews.ts";
import { fieldErrors } from "./brokerForm.ts";
import { ConsoleDialog } from "./consoleDialog.ts";
import { defineOnce } from "./consoleElement.ts";

/**
 * <bd-hide-review-dialog>: hides a review with a reason (spam, abusive, not a customer, other +
 * a note). Fires `review-changed`; the page then reads the queue again, with the broker's new rating.
 */
export class BdHideReviewDialog extends ConsoleDialog {
  static override properties: PropertyDeclarations = { ...ConsoleDialog.properties, review: { state: true }, reason: { state: true }, errors: { state: true }, problem: { state: true }, sending: { state: true } };
  declare review: Pick<DirectoryReview, "id" | "authorName"> | undefined;
  declare reason: HideReason;
  declare errors: Record<string, string>;
  declare problem: unknown;
  declare sending: boolean;

  constructor() {
    super();
    this.reason = "spam";
    this.errors = {};
    this.sending = false;
  }

  show(review: Pick<DirectoryReview, "id" | "authorName">, opener: HTMLElement): void {
    this.review = review;
    this.reason = "spam";
    this.errors = {};
    this.problem = undefined;
    void this.openDialog(opener).then(() => {
      const note = this.renderRoot.querySelector<HTMLTextAreaElement>("#note");
      if (note) note.value = "";
    });
  }

  private async confirm(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const review = this.review;
    if (!review) return;
    const note = this.renderRoot.querySelector<HTMLTextAreaElement>("#note")?.value.trim() ?? "";
    this.errors = this.reason === "other" && note === "" ? { note: this.t("error.required") } : {};
    if (this.errors.note) return this.renderRoot.querySelector<HTMLTextAreaElement>("#note")?.focus();
    this.sending = true;
    try {
      await this.api.send("POST", `/console/api/directory/reviews/${encodeURIComponent(review.id)}/hide`, { reason: this.reason, note: note || undefined });
      this.closeDialog();
      this.dispatchEvent(new CustomEvent("review-changed", { detail: { id: review.id, hidden: true }, bubbles: true, composed: true }));
    } catch (error) {
      this.errors = fieldErrors(error);
      if (Object.keys(this.errors).length === 0) this.problem = error;
    } finally {
      this.sending = false;
    }
  }

  override render() {
    const t = this.t;
    const noteError = this.errors.note;
    return html`<dialog aria-labelledby="hide-title" aria-describedby="hide-body" @close=${this.onClosed}>
      <form novalidate @submit=${this.confirm}>
        <h2 id="hide-title">${t("hide.title", { name: this.review?.authorName ?? "" })}</h2>
        <p id="hide-body">${t("hide.body")}</p>
        ${this.problem ? this.renderProblem(this.problem) : nothing}
        <fieldset>
          <legend>${t("hide.reason")}</legend>
          <div class="checks">
            ${HIDE_REASONS.map(
              (reason) => html`<label><input type="radio" name="reason" value=${reason} .checked=${this.reason === reason} @change=${() => (this.reason = reason)} /> ${t(`reason.${reason}`)}</label>`,
            )}
          </div>
          ${this.errors.reason ? html`<p class="error">${this.errors.reason}</p>` : nothing}
        </fieldset>
        <div class="field">
          <label for="note">${t("hide.note")}</label>
          <textarea id="note" rows="3" maxlength="1000" aria-invalid=${noteError ? "true" : nothing} aria-describedby=${noteError ? "e-note h-note" : "h-note"}></textarea>
          <span class="hint" id="h-note">${t("hide.noteHint")}</span>
          ${noteError ? html`<p class="error" id="e-note">${noteError}</p>` : nothing}
        </div>
        <div class="actions">
          <button type="submit" class="danger" ?disabled=${this.sending}>${t("rev.hide")}</button>
          <button type="button" class="secondary" @click=${() => this.closeDialog()}>${t("cancel")}</button>
        </div>
      </form>
    </dialog>`;
  }
}

defineOnce("bd-hide-review-dialog", BdHideReviewDialog);
