import { html, nothing, type PropertyDeclarations } from "lit";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { formatWhen } from "./i18n.ts";
import type { BdCreateKeyDialog, CreatedKey } from "./createKeyDialog.ts";
import type { BdKeyActionDialog } from "./keyActionDialog.ts";
import type { BdKeySecretDialog } from "./keySecretDialog.ts";
import "./createKeyDialog.ts";
import "./keyActionDialog.ts";
import "./keySecretDialog.ts";

/**
 * <bd-keys-page>: Settings → API keys. The workspace's keys (prefix only, never a secret),
 * Create key, and per key Revoke and Roll, each through a dialog; a new key is shown once.
 */
export class BdKeysPage extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, keys: { state: true } };
  declare keys: KeyView[] | undefined;


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
    this.dialog<BdKeySecretDialog>("bd-key-secret-dialog").show(event.detail.key, event.detail.data.name);
    this.announce(event.detail.message);
  }

  override render() {
    const t = this.t;
    return html`
      <h1 tabindex="-1">${t("keys.heading")}</h1>
      <p class="muted">${t("keys.intro")}</p>
      <p><button @click=${(e: Event) => this.dialog<BdCreateKeyDialog>("bd-create-key-dialog").show(e.currentTarget as HTMLElement)}>${t("keys.create")}</button></p>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${this.keys === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.keys?.length === 0 ? html`<p>${t("keys.empty")}</p>` : nothing}
      ${this.keys && this.keys.length > 0 ? this.renderTable(this.keys) : nothing}
      <bd-create-key-dialog .api=${this.api} lang=${this.lang} @key-created=${this.created}></bd-create-key-dialog>
      <bd-key-action-dialog .api=${this.api} lang=${this.lang} @key-changed=${async (e: CustomEvent<{ message: string; key?: string; name: string }>) => {
        await this.load();
        if (e.detail.key) this.dialog<BdKeySecretDialog>("bd-key-secret-dialog").show(e.detail.key, e.detail.name);
        this.announce(e.detail.message);
      }}></bd-key-action-dialog>
      <bd-key-secret-dialog lang=${this.lang}></bd-key-secret-dialog>
    `;
  }

  private renderTable(keys: KeyView[]) {
    const t = this.t;
    const lang = this.lang;
    return html`<div class="table-wrap"><table>
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
          <td><code>${key.prefix}…</code></td>
          <td>${key.scopes.map((s) => html`<span class="badge" title=${t(`scope.${s}`)}>${s}</span> `)}</td>
          <td>${key.kind === "embed" ? t("kind.embed", { origins: (key.origins ?? []).join(", ") }) : t("kind.server")}</td>
          <td>${t("perMinute", { n: key.rateLimitPerMinute.toLocaleString(lang === "fr" ? "fr-CA" : "en-CA") })}</td>
          <td>${formatWhen(lang, key.createdAt, "")}</td>
          <td>${formatWhen(lang, key.lastUsedAt, t("never"))}</td>
          <td>${formatWhen(lang, key.expiresAt, t("never"))}</td>
          <td><span class="badge ${key.status}">${t(`status.${key.status}`)}</span></td>
          <td>${key.status === "active"
            ? html`<div class="row">
                <button class="danger" aria-label="${t("revoke")} ${key.name}" @click=${(e: Event) => this.dialog<BdKeyActionDialog>("bd-key-action-dialog").show("revoke", key, e.currentTarget as HTMLElement)}>${t("revoke")}</button>
                <button class="secondary" aria-label="${t("roll")} ${key.name}" @click=${(e: Event) => this.dialog<BdKeyActionDialog>("bd-key-action-dialog").show("roll", key, e.currentTarget as HTMLElement)}>${t("roll")}</button>
              </div>`
            : nothing}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }
}

defineOnce("bd-keys-page", BdKeysPage);
