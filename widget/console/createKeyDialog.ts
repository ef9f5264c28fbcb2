import { html, nothing, type PropertyDeclarations } from "lit";
import { defaultScopesFor, EMBED_SCOPES, MAX_KEY_NAME_LENGTH, MAX_KEY_RATE_LIMIT, MAX_ORIGINS, OPERATOR_SCOPES, SCOPES, type Scope } from "../../src/auth/keyVocabulary.ts";
import { normalizeOrigin } from "../../src/domain/origin.ts";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import { FormDialog } from "./formDialog.ts";
import { defineOnce } from "./consoleElement.ts";

export interface CreatedKey {
  key: string;
  data: KeyView;
}

const EXPIRY_DAYS = ["never", "7", "30", "90", "365"] as const;
type Expiry = (typeof EXPIRY_DAYS)[number];

/**
 * <bd-create-key-dialog>: name, scopes, rate limit, expiry and origins (origins make an embed
 * key). Checks what the server's schema checks before sending; what the server still refuses
 * (422) is shown next to its field. Fires `key-created` with the full key, shown once.
 */
export class BdCreateKeyDialog extends FormDialog {
  static override properties: PropertyDeclarations = {
    ...FormDialog.properties,
  };


  /** Whether the person chose scopes themselves: until then the boxes follow the defaults for the key's kind. */
  private scopesTouched = false;

  show(opener: HTMLElement | null): void {
    this.scopesTouched = false;
    this.errors = {};
    this.problem = undefined;
    this.renderRoot.querySelector("form")?.reset();
    void this.openDialog(opener);
  }

  private read(form: HTMLFormElement) {
    const data = new FormData(form);
    const name = String(data.get("name") ?? "").trim();
    const scopes = data.getAll("scopes").map(String) as Scope[];
    const rate = String(data.get("rateLimitPerMinute") ?? "").trim();
    const expiry = String(data.get("expiry") ?? "never") as Expiry;
    const originLines = String(data.get("origins") ?? "").split(/\s+/).filter(Boolean);
    const t = this.t;
    const errors: Record<string, string> = {};
    if (!name) errors.name = t("error.required");
    else if (name.length > MAX_KEY_NAME_LENGTH) errors.name = t("error.tooLong", { max: MAX_KEY_NAME_LENGTH });
    if (scopes.length === 0) errors.scopes = t("error.scopes");
    const rateLimitPerMinute = Number(rate);
    if (!/^\d+$/.test(rate) || rateLimitPerMinute < 1 || rateLimitPerMinute > MAX_KEY_RATE_LIMIT) {
      errors.rateLimitPerMinute = t("error.whole", { min: 1, max: MAX_KEY_RATE_LIMIT.toLocaleString(this.lang === "fr" ? "fr-CA" : "en-CA") });
    }
    const origins = originLines.map((line) => normalizeOrigin(line));
    const badOrigin = originLines.find((_, i) => origins[i] === undefined);
    if (badOrigin !== undefined) errors.origins = t("error.origin", { value: badOrigin });
    else if (originLines.length > MAX_ORIGINS) errors.origins = t("error.tooLong", { max: MAX_ORIGINS });
    else if (originLines.length > 0) {
      const outside = scopes.filter((s) => !EMBED_SCOPES.includes(s));
      if (outside.length > 0) errors.scopes = t("error.embedScopes", { scopes: outside.join(", ") });
    }
    const expiresAt = expiry === "never" ? null : new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
    const body = { name, scopes, rateLimitPerMinute, expiresAt, origins: originLines.length > 0 ? (origins as string[]) : null };
    return { body, errors };
  }

  /** Origins typed make an embed key: the boxes show the embed defaults (the CLI's and the API's, defaultScopesFor). */
  private originsChanged(event: Event): void {
    if (this.scopesTouched) return;
    const typed = (event.target as HTMLTextAreaElement).value.trim();
    const defaults = defaultScopesFor(typed ? [typed] : null);
    for (const box of this.renderRoot.querySelectorAll<HTMLInputElement>('input[name="scopes"]')) box.checked = defaults.includes(box.value as Scope);
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const { body, errors } = this.read(event.target as HTMLFormElement);
    await this.send(errors, () => this.api.send<CreatedKey>("POST", "/console/api/keys", body), (created) => {
      this.closeDialog();
      this.dispatchEvent(new CustomEvent("key-created", { detail: { ...created, message: this.t("secret.done", { name: created.data.name }) } }));
    });
  }

  override render() {
    const t = this.t;
    return html`<dialog aria-labelledby="create-title" @close=${this.onClosed}>
      <form novalidate @submit=${this.submit}>
        <h2 id="create-title">${t("create.title")}</h2>
        ${Object.keys(this.errors).length > 0 ? html`<p class="error" role="alert">${t("fixFields")}</p>` : nothing}
        ${this.problem ? this.renderProblem(this.problem) : nothing}
        <div class="field">
          <label for="name">${t("create.name")}</label>
          <input id="name" name="name" autocomplete="off" aria-invalid=${this.invalid("name")} aria-describedby=${this.described("name", true)} />
          <span class="hint" id="h-name">${t("create.nameHint")}</span>
          ${this.fieldError("name")}
        </div>
        <fieldset aria-invalid=${this.invalid("scopes")} aria-describedby=${this.described("scopes")} @change=${() => (this.scopesTouched = true)}>
          <legend>${t("create.scopes")}</legend>
          ${SCOPES.filter((scope) => !OPERATOR_SCOPES.includes(scope)).map(
            (scope) => html`<div><label><input type="checkbox" name="scopes" value=${scope} ?checked=${defaultScopesFor(null).includes(scope)} />
              <code>${scope}</code> <span class="muted">${t(`scope.${scope}`)}</span></label></div>`,
          )}
          ${this.fieldError("scopes")}
        </fieldset>
        <div class="field">
          <label for="rate">${t("create.rateLimit")}</label>
          <input id="rate" name="rateLimitPerMinute" inputmode="numeric" value="100" aria-invalid=${this.invalid("rateLimitPerMinute")} aria-describedby=${this.described("rateLimitPerMinute")} />
          ${this.fieldError("rateLimitPerMinute")}
        </div>
        <div class="field">
          <label for="expiry">${t("create.expiry")}</label>
          <select id="expiry" name="expiry" aria-invalid=${this.invalid("expiresAt")} aria-describedby=${this.described("expiresAt")}>
            ${EXPIRY_DAYS.map((d) => html`<option value=${d}>${t(`expiry.${d}`)}</option>`)}
          </select>
          ${this.fieldError("expiresAt")}
        </div>
        <div class="field">
          <label for="origins">${t("create.origins")}</label>
          <textarea id="origins" name="origins" rows="2" @input=${this.originsChanged} aria-invalid=${this.invalid("origins")} aria-describedby=${this.described("origins", true)}></textarea>
          <span class="hint" id="h-origins">${t("create.originsHint")}</span>
          ${this.fieldError("origins")}
        </div>
        <div class="actions">
          <button type="submit" ?disabled=${this.sending}>${t("create.submit")}</button>
          <button type="button" class="secondary" @click=${() => this.closeDialog()}>${t("cancel")}</button>
        </div>
      </form>
    </dialog>`;
  }
}

defineOnce("bd-create-key-dialog", BdCreateKeyDialog);
