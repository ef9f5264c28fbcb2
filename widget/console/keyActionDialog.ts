import { html, nothing, type PropertyDeclarations } from "lit";
import { ROLL_GRACES, type RollGrace } from "../../src/auth/keyVocabulary.ts";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import { ConsoleDialog } from "./consoleDialog.ts";
import { defineOnce } from "./consoleElement.ts";

type Action = "revoke" | "roll";

/**
 * <bd-key-action-dialog>: confirms Revoke (immediate, final) or Roll (a new key of the same
 * settings; the old one stops after the grace period chosen here). Fires `key-changed`.
 */
export class BdKeyActionDialog extends ConsoleDialog {
  static override properties: PropertyDeclarations = { ...ConsoleDialog.properties, action: { state: true }, target: { state: true }, problem: { state: true }, sending: { state: true } };
  declare action: Action;
  declare target: KeyView | undefined;
  declare problem: unknown;
  declare sending: boolean;

  constructor() {
    super();
    this.action = "revoke";
    this.sending = false;
  }

  show(action: Action, key: KeyView, opener: HTMLElement): void {
    this.action = action;
    this.target = key;
    this.problem = undefined;
    void this.openDialog(opener);
  }

  private async confirm(): Promise<void> {
    const key = this.target;
    if (!key) return;
    this.sending = true;
    try {
      if (this.action === "revoke") {
        await this.api.send("POST", `/console/api/keys/${encodeURIComponent(key.id)}/revoke`);
        this.finish({ message: this.t("revoke.done", { name: key.name }), name: key.name });
      } else {
        const grace = (this.renderRoot.querySelector<HTMLSelectElement>("#grace")?.value ?? "24h") as RollGrace;
        const rolled = await this.api.send<{ key: string; data: KeyView }>("POST", `/console/api/keys/${encodeURIComponent(key.id)}/roll`, { grace });
        this.finish({ message: this.t("roll.done", { name: key.name }), name: key.name, key: rolled.key, view: rolled.data });
      }
    } catch (error) {
      this.problem = error;
    } finally {
      this.sending = false;
    }
  }

  private finish(detail: { message: string; name: string; key?: string; view?: KeyView }): void {
    this.closeDialog();
    this.dispatchEvent(new CustomEvent("key-changed", { detail }));
  }

  override render() {
    const t = this.t;
    const name = this.target?.name ?? "";
    const revoke = this.action === "revoke";
    return html`<dialog aria-labelledby="action-title" aria-describedby="action-body" @close=${this.onClosed}>
      <h2 id="action-title">${t(revoke ? "revoke.title" : "roll.title", { name })}</h2>
      <p id="action-body">${t(revoke ? "revoke.body" : "roll.body")}</p>
      ${this.problem ? this.renderProblem(this.problem) : nothing}
      ${revoke
        ? nothing
        : html`<div class="field"><label for="grace">${t("roll.grace")}</label>
            <select id="grace">${ROLL_GRACES.map((g) => html`<option value=${g} ?selected=${g === "24h"}>${t(`grace.${g}`)}</option>`)}</select></div>`}
      <div class="actions">
        <button class=${revoke ? "danger" : ""} ?disabled=${this.sending} @click=${() => this.confirm()}>${t(revoke ? "revoke" : "roll")}</button>
        <button class="secondary" autofocus @click=${() => this.closeDialog()}>${t("cancel")}</button>
      </div>
    </dialog>`;
  }
}

defineOnce("bd-key-action-dialog", BdKeyActionDialog);
