import { html, nothing, type PropertyDeclarations } from "lit";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import { ConsoleDialog } from "./consoleDialog.ts";
import { defineOnce } from "./consoleElement.ts";

/**
 * <bd-key-secret-dialog>: the full key, once, with a copy button and the warning that it will
 * not be shown again. The key is forgotten when the dialog closes.
 */
export class BdKeySecretDialog extends ConsoleDialog {
  static override properties: PropertyDeclarations = { ...ConsoleDialog.properties, key: { state: true }, name: { state: true }, copied: { state: true }, view: { state: true } };
  declare key: string;
  /** The key's listing: for an embed key the dialog offers its embed code, the one moment the console holds the secret. */
  declare view: KeyView | undefined;
  declare name: string;
  declare copied: boolean;

  constructor() {
    super();
    this.key = "";
    this.name = "";
    this.copied = false;
  }

  show(key: string, name: string, view?: KeyView): void {
    this.key = key;
    this.name = name;
    this.view = view;
    this.copied = false;
    void this.openDialog(null);
  }

  private async copy(): Promise<void> {
    const field = this.renderRoot.querySelector<HTMLInputElement>("#secret");
    try {
      await navigator.clipboard.writeText(this.key);
    } catch {
      // Without clipboard permission, select the text so Ctrl+C works.
      field?.select();
    }
    this.copied = true;
    this.announce(this.t("copied"));
  }

  /** Hands the key to the embed-code dialog (an `embed-code` event), then closes, forgetting it here. */
  private toEmbedCode(): void {
    const detail = { key: this.key, view: this.view };
    this.closeDialog();
    this.dispatchEvent(new CustomEvent("embed-code", { detail }));
  }

  override render() {
    const t = this.t;
    return html`<dialog aria-labelledby="secret-title" aria-describedby="secret-warning" @close=${() => {
      this.key = "";
      this.onClosed();
    }}>
      <h2 id="secret-title">${t("secret.title")}: ${this.name}</h2>
      <p id="secret-warning" class="notice" role="note"><strong>${t("secret.warning")}</strong></p>
      <div class="field">
        <label for="secret">${t("secret.label")}</label>
        <input id="secret" readonly .value=${this.key} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
      </div>
      ${this.copied ? html`<p class="muted">${t("copied")}</p>` : nothing}
      ${this.view?.kind === "embed" ? html`<p class="muted">${t("secret.embedHint")}</p>` : nothing}
      <div class="actions">
        <button autofocus @click=${() => this.copy()}>${t("copy")}</button>
        ${this.view?.kind === "embed" ? html`<button class="secondary" @click=${() => this.toEmbedCode()}>${t("embed.copy")}</button>` : nothing}
        <button class="secondary" @click=${() => this.closeDialog()}>${t("close")}</button>
      </div>
    </dialog>`;
  }
}

defineOnce("bd-key-secret-dialog", BdKeySecretDialog);
