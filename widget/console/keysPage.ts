import { html, nothing, type PropertyDeclarations } from "lit";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { formatWhen } from "./i18n.ts";
import type { BdCreateKeyDialog, CreatedKey } from "./createKeyDialog.ts";
import type { BdKeyActionDialog } from "./keyActionDialog.ts";
import type { BdKeySecretDialog } from "./keySecretDialog.ts";
import type { BdEditKeyDialog } from "./editKeyDialog.ts";
import type { BdEmbedCodeDialog } from "./embedCodeDialog.ts";
import "./createKeyDialog.ts";
import "./keyActionDialog.ts";
import "./keySecretDialog.ts";
import "./editKeyDialog.ts";
import "./embedCodeDialog.ts";

type KeyChanged = CustomEvent<{ message: string; key?: string; name: string; view?: KeyView }>;

/**
 * <bd-keys-page>: Settings → API keys. The workspace's keys (prefix only, never a secret),
 * Create key, and per key Edit, Roll, Revoke and, for an embed key, its embed code, each
 * through a dialog; a new key is shown once. Revoked and expired keys are history: hidden
 * until asked for, so the list is the keys that work.
 */
export class BdKeysPage extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, keys: { state: true }, showAll: { state: true } };
  declare keys: KeyView[] | undefined;
  declare showAll: boolean;

  constructor() {
    super();
    this.showAll = false;
  }


  protected override load(): Promise<void> {
    return this.attempt(async () => {
      this.keys = (await this.api.get<{ data: KeyView[] }>("/console/api/keys")).data;
    });
  }

  private dialog<T>(selector: string): T {
    return this.renderRoot.querySelector(selector) as T;
  }

  private async created(event: CustomEvent<CreatedKey & { message: string }>): Promise<void> {
    await this.load();
    this.dialog<BdKeySecretDialog>("bd-key-secret-dialog").show(event.detail.key, event.detail.data.name, event.detail.data);
    this.announce(event.detail.message);
  }

  private async changed(event: KeyChanged): Promise<void> {
    await this.load();
    if (event.detail.key) this.dialog<BdKeySecretDialog>("bd-key-secret-dialog").show(event.detail.key, event.detail.name, event.detail.view);
    this.announce(event.detail.message);
  }

  private embedCode(key: KeyView, opener: HTMLElement | null, secret?: string): void {
    this.dialog<BdEmbedCodeDialog>("bd-embed-code-dialog").show(key, opener, secret);
  }

  override render() {
    const t = this.t;
    const hidden = (this.keys ?? []).filter((key) => key.status !== "active").length;
    const shown = this.showAll ? this.keys : this.keys?.filter((key) => key.status === "active");
    return html`
      <h1 tabindex="-1">${t("keys.heading")}</h1>
      <p class="muted">${t("keys.intro")}</p>
      <div class="row spread">
        <button @click=${(e: Event) => this.dialog<BdCreateKeyDialog>("bd-create-key-dialog").show(e.currentTarget as HTMLElement)}>${t("keys.create")}</button>
        ${hidden > 0
          ? html`<label class="toggle"><input type="checkbox" .checked=${this.showAll} @change=${(e: Event) => (this.showAll = (e.target as HTMLInputElement).checked)} /> ${t("keys.showRevoked", { n: hidden })}</label>`
          : nothing}
      </div>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${this.keys === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${shown?.length === 0 ? html`<p>${t("keys.empty")}</p>` : nothing}
      ${shown && shown.length > 0 ? this.renderTable(shown) : nothing}
      <bd-create-key-dialog .api=${this.api} lang=${this.lang} @key-created=${this.created}></bd-create-key-dialog>
      <bd-key-action-dialog .api=${this.api} lang=${this.lang} @key-changed=${this.changed}></bd-key-action-dialog>
      <bd-edit-key-dialog .api=${this.api} lang=${this.lang} @key-changed=${this.changed}></bd-edit-key-dialog>
      <bd-key-secret-dialog lang=${this.lang} @embed-code=${(e: CustomEvent<{ key: string; view?: KeyView }>) => e.detail.view && this.embedCode(e.detail.view, null, e.detail.key)}></bd-key-secret-dialog>
      <bd-embed-code-dialog .api=${this.api} lang=${this.lang}></bd-embed-code-dialog>
    `;
  }

  private renderTable(keys: KeyView[]) {
    const t = this.t;
    const lang = this.lang;
    const opener = (e: Event) => e.currentTarget as HTMLElement;
    // At phone widths the table stacks (pageStyles' table.stack): each cell says its column with data-label.
    return html`<div class="table-wrap"><table class="stack">
      <caption class="sr-only">${t("keys.caption")}</caption>
      <thead><tr>
        <th scope="col">${t("col.name")}</th><th scope="col">${t("col.key")}</th><th scope="col">${t("col.scopes")}</th>
        <th scope="col">${t("col.kind")}</th><th scope="col">${t("col.rateLimit")}</th><th scope="col">${t("col.created")}</th>
        <th scope="col">${t("col.lastUsed")}</th><th scope="col">${t("col.expires")}</th><th scope="col">${t("col.status")}</th>
        <th scope="col">${t("col.actions")}</th>
      </tr></thead>
      <tbody>${keys.map(
        (key) => html`<tr data-key-id=${key.id}>
          <th scope="row">${key.name}</th>
          <td data-label=${t("col.key")}><code>${key.prefix}…</code></td>
          <td data-label=${t("col.scopes")}>${key.scopes.map((s) => html`<span class="badge" title=${t(`scope.${s}`)}>${s}</span> `)}</td>
          <td data-label=${t("col.kind")}>${key.kind === "embed" ? t("kind.embed", { origins: (key.origins ?? []).join(", ") }) : t("kind.server")}</td>
          <td data-label=${t("col.rateLimit")}>${t("perMinute", { n: key.rateLimitPerMinute.toLocaleString(lang === "fr" ? "fr-CA" : "en-CA") })}</td>
          <td data-label=${t("col.created")}>${formatWhen(lang, key.createdAt, "")}</td>
          <td data-label=${t("col.lastUsed")}>${formatWhen(lang, key.lastUsedAt, t("never"))}</td>
          <td data-label=${t("col.expires")}>${formatWhen(lang, key.expiresAt, t("never"))}</td>
          <td data-label=${t("col.status")}><span class="badge ${key.status}">${t(`status.${key.status}`)}</span></td>
          <td>${key.status === "active"
            ? html`<div class="row">
                ${key.kind === "embed" ? html`<button aria-label="${t("embed.button")} ${key.name}" @click=${(e: Event) => this.embedCode(key, opener(e))}>${t("embed.button")}</button>` : nothing}
                <button class="secondary" aria-label="${t("edit")} ${key.name}" @click=${(e: Event) => void this.dialog<BdEditKeyDialog>("bd-edit-key-dialog").show(key, opener(e))}>${t("edit")}</button>
                <button class="secondary" aria-label="${t("roll")} ${key.name}" @click=${(e: Event) => this.dialog<BdKeyActionDialog>("bd-key-action-dialog").show("roll", key, opener(e))}>${t("roll")}</button>
                <button class="danger" aria-label="${t("revoke")} ${key.name}" @click=${(e: Event) => this.dialog<BdKeyActionDialog>("bd-key-action-dialog").show("revoke", key, opener(e))}>${t("revoke")}</button>
              </div>`
            : nothing}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }
}

defineOnce("bd-keys-page", BdKeysPage);
