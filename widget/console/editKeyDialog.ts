import { html, nothing, type PropertyDeclarations } from "lit";
import { MAX_KEY_NAME_LENGTH, MAX_KEY_RATE_LIMIT, MAX_ORIGINS } from "../../src/auth/keyVocabulary.ts";
import { normalizeOrigin } from "../../src/domain/origin.ts";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import type { z } from "zod";
import type { updateKeyInput } from "../../src/router/keys/updateKey.ts";
import { FormDialog } from "./formDialog.ts";
import { defineOnce } from "./consoleElement.ts";

type KeyChange = Omit<z.input<typeof updateKeyInput>, "keyId">;

/**
 * <bd-edit-key-dialog>: a key's name, rate limit and (for an embed key) origins, changed in
 * place through keys.update: the key keeps working, no roll. Checks what the server's schema
 * checks before sending; what the server still refuses (422, or 403 for a limit above what this
 * workspace may give) is shown next to its field or above the form. Fires `key-changed`.
 */
export class BdEditKeyDialog extends FormDialog {
  static override properties: PropertyDeclarations = {
    ...FormDialog.properties,
    view: { state: true },
  };
  declare view: KeyView | undefined;


  async show(view: KeyView, opener: HTMLElement | null): Promise<void> {
    // Rendered afresh for each opening: the fields start from this key's values, not from what was typed last time.
    this.view = undefined;
    await this.updateComplete;
    this.view = view;
    this.errors = {};
    this.problem = undefined;
    await this.openDialog(opener);
  }

  private read(form: HTMLFormElement, view: KeyView): { body: KeyChange; errors: Record<string, string> } {
    const data = new FormData(form);
    const t = this.t;
    const errors: Record<string, string> = {};
    const name = String(data.get("name") ?? "").trim();
    if (!name) errors.name = t("error.required");
    else if (name.length > MAX_KEY_NAME_LENGTH) errors.name = t("error.tooLong", { max: MAX_KEY_NAME_LENGTH });
    const rate = String(data.get("rateLimitPerMinute") ?? "").trim();
    const rateLimitPerMinute = Number(rate);
    if (!/^\d+$/.test(rate) || rateLimitPerMinute < 1 || rateLimitPerMinute > MAX_KEY_RATE_LIMIT) {
      errors.rateLimitPerMinute = t("error.whole", { min: 1, max: MAX_KEY_RATE_LIMIT.toLocaleString(this.lang === "fr" ? "fr-CA" : "en-CA") });
    }
    const body: KeyChange = { name, rateLimitPerMinute };
    if (view.kind === "embed") {
      const lines = String(data.get("origins") ?? "").split(/\s+/).filter(Boolean);
      const origins = lines.map((line) => normalizeOrigin(line));
      const bad = lines.find((_, i) => origins[i] === undefined);
      if (lines.length === 0) errors.origins = t("error.originsRequired");
      else if (bad !== undefined) errors.origins = t("error.origin", { value: bad });
      else if (lines.length > MAX_ORIGINS) errors.origins = t("error.tooLong", { max: MAX_ORIGINS });
      body.origins = origins as string[];
    }
    return { body, errors };
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const view = this.view;
    if (!view) return;
    const { body, errors } = this.read(event.target as HTMLFormElement, view);
    await this.send(errors, () => this.api.send<KeyView>("PATCH", `/console/api/keys/${encodeURIComponent(view.id)}`, body), (saved) => {
      this.closeDialog();
      this.dispatchEvent(new CustomEvent("key-changed", { detail: { message: this.t("edit.done", { name: saved.name }), name: saved.name } }));
    });
  }

  override render() {
    const t = this.t;
    const view = this.view;
    if (!view) return html`<dialog></dialog>`;
    return html`<dialog aria-labelledby="edit-title" @close=${this.onClosed}>
      <form novalidate @submit=${this.submit}>
        <h2 id="edit-title">${t("edit.title", { name: view.name })}</h2>
        <p class="muted">${t("edit.body")}</p>
        ${Object.keys(this.errors).length > 0 ? html`<p class="error" role="alert">${t("fixFields")}</p>` : nothing}
        ${this.problem ? this.renderProblem(this.problem) : nothing}
        <div class="field">
          <label for="edit-name">${t("create.name")}</label>
          <input id="edit-name" name="name" autocomplete="off" .value=${view.name} aria-invalid=${this.invalid("name")} aria-describedby=${this.described("name")} />
          ${this.fieldError("name")}
        </div>
        <div class="field">
          <label for="edit-rate">${t("create.rateLimit")}</label>
          <input id="edit-rate" name="rateLimitPerMinute" inputmode="numeric" .value=${String(view.rateLimitPerMinute)} aria-invalid=${this.invalid("rateLimitPerMinute")} aria-describedby=${this.described("rateLimitPerMinute")} />
          ${this.fieldError("rateLimitPerMinute")}
        </div>
        ${view.kind === "embed"
          ? html`<div class="field">
              <label for="edit-origins">${t("edit.origins")}</label>
              <textarea id="edit-origins" name="origins" rows="3" .value=${(view.origins ?? []).join("\n")} aria-invalid=${this.invalid("origins")} aria-describedby=${this.described("origins", true)}></textarea>
              <span class="hint" id="h-origins">${t("edit.originsHint")}</span>
              ${this.fieldError("origins")}
            </div>`
          : nothing}
        <div class="actions">
          <button type="submit" ?disabled=${this.sending}>${t("save")}</button>
          <button type="button" class="secondary" @click=${() => this.closeDialog()}>${t("cancel")}</button>
        </div>
      </form>
    </dialog>`;
  }
}

defineOnce("bd-edit-key-dialog", BdEditKeyDialog);
