import { html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import type { EmbedPreview } from "../../src/adapters/console/embedPreview.ts";
import type { KeyView } from "../../src/router/keys/keyView.ts";
import { ConsoleDialog } from "./consoleDialog.ts";
import { defineOnce } from "./consoleElement.ts";
import { EMBED_THEMES, EMBED_TYPES, embedSnippet, type EmbedTheme, type EmbedType } from "./embedSnippet.ts";
import { firstBrokerSlug, loadWidgetScript, previewElement } from "./widgetPreview.ts";

/**
 * <bd-embed-code-dialog>: the snippet for one embed key, with a widget type and theme chooser,
 * a Copy button and a live preview. The console keeps only key hashes, so it knows the key's
 * secret only right after creating or rolling it (then it is filled in); otherwise the owner
 * pastes it, checked against the key's prefix. The preview cannot use the partner's key (it
 * works only on the partner's origins): it runs with the server's preview key for this origin.
 */
export class BdEmbedCodeDialog extends ConsoleDialog {
  static override properties: PropertyDeclarations = {
    ...ConsoleDialog.properties,
    view: { state: true },
    secret: { state: true },
    known: { state: true },
    type: { state: true },
    theme: { state: true },
    broker: { state: true },
    preview: { state: true },
    copied: { state: true },
  };
  declare view: KeyView | undefined;
  declare secret: string;
  declare known: boolean;
  declare type: EmbedType;
  declare theme: EmbedTheme;
  declare broker: string;
  /** undefined until asked; null when the server has no preview key to give. */
  declare preview: EmbedPreview | null | undefined;
  declare copied: boolean;

  constructor() {
    super();
    this.secret = "";
    this.known = false;
    this.type = "directory";
    this.theme = "auto";
    this.broker = "";
    this.copied = false;
  }

  /** Opens for `view`; `secret` when the console was just given the key (creation, roll). */
  show(view: KeyView, opener: HTMLElement | null, secret?: string): void {
    this.view = view;
    this.secret = secret ?? "";
    this.known = secret !== undefined;
    this.copied = false;
    void this.openDialog(opener);
    void this.loadPreview();
  }

  private async loadPreview(): Promise<void> {
    if (this.preview !== undefined) return;
    try {
      const preview = await this.api.get<EmbedPreview>("/console/api/embed-preview");
      this.preview = preview;
      if (preview.previewKey) await loadWidgetScript();
    } catch {
      this.preview = null;
    }
  }

  private async pickType(type: EmbedType): Promise<void> {
    this.type = type;
    // A reviews widget shows one broker: start from a published one, which the owner can change.
    const key = this.preview?.previewKey;
    if (type === "reviews" && !this.broker && key) this.broker = (await firstBrokerSlug(key)) ?? "";
  }

  private get snippet(): string {
    const prefix = this.view?.prefix ?? "brk_";
    return embedSnippet({ widgetUrl: this.preview?.widgetUrl ?? `${location.origin}/widget.js`, key: this.secret.trim() || `${prefix}…`, type: this.type, theme: this.theme, broker: this.broker.trim() });
  }

  private get keyProblem(): string | undefined {
    const typed = this.secret.trim();
    const prefix = this.view?.prefix ?? "";
    return typed && !typed.startsWith(prefix) ? this.t("embed.keyMismatch", { prefix }) : undefined;
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.snippet);
    } catch {
      // Without clipboard permission, select the text so Ctrl+C works.
      this.renderRoot.querySelector<HTMLTextAreaElement>("#snippet")?.select();
    }
    this.copied = true;
    this.announce(this.t("copied"));
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (!["preview", "type", "theme", "broker", "lang", "view"].some((name) => changed.has(name as keyof BdEmbedCodeDialog))) return;
    const target = this.renderRoot.querySelector<HTMLElement>("#preview");
    const key = this.preview?.previewKey;
    if (!target || !key || !this.view) return;
    target.replaceChildren(previewElement({ key, type: this.type, theme: this.theme, lang: this.lang, broker: this.broker.trim() }));
  }

  override render() {
    const t = this.t;
    const view = this.view;
    if (!view) return html`<dialog></dialog>`;
    const problem = this.keyProblem;
    const radios = <V extends string>(name: string, legend: string, values: readonly V[], current: V, label: (v: V) => string, pick: (v: V) => void) =>
      html`<fieldset class="choices"><legend>${legend}</legend>${values.map(
        (v) => html`<label><input type="radio" name=${name} value=${v} .checked=${current === v} @change=${() => pick(v)} /> ${label(v)}</label>`,
      )}</fieldset>`;
    return html`<dialog class="wide" aria-labelledby="embed-title" @close=${() => {
      this.secret = "";
      this.onClosed();
    }}>
      <h2 id="embed-title">${t("embed.title", { name: view.name })}</h2>
      <div class="field">
        <label for="embed-key">${t("embed.key")}</label>
        <input id="embed-key" autocomplete="off" spellcheck="false" .value=${this.secret} placeholder="${view.prefix}…"
          aria-invalid=${problem ? "true" : nothing} aria-describedby="embed-key-hint${problem ? " embed-key-error" : ""}"
          @input=${(e: Event) => (this.secret = (e.target as HTMLInputElement).value)} />
        <span class="hint" id="embed-key-hint">${this.known ? t("embed.keyKnown") : t("embed.keyHint", { prefix: view.prefix })}</span>
        ${problem ? html`<p class="error" id="embed-key-error">${problem}</p>` : nothing}
      </div>
      ${radios("type", t("embed.type"), EMBED_TYPES, this.type, (v) => t(`embed.type.${v}`), (v) => void this.pickType(v))}
      ${this.type === "reviews"
        ? html`<div class="field"><label for="embed-broker">${t("embed.broker")}</label>
            <input id="embed-broker" autocomplete="off" .value=${this.broker} @change=${(e: Event) => (this.broker = (e.target as HTMLInputElement).value)} /></div>`
        : nothing}
      ${radios("theme", t("embed.theme"), EMBED_THEMES, this.theme, (v) => t(`theme.${v}`), (v) => (this.theme = v))}
      <div class="field">
        <label for="snippet">${t("embed.snippet")}</label>
        <textarea id="snippet" readonly rows="4" spellcheck="false" .value=${this.snippet} @focus=${(e: Event) => (e.target as HTMLTextAreaElement).select()}></textarea>
        ${this.secret.trim() ? nothing : html`<p class="hint">${t("embed.incomplete", { prefix: view.prefix })}</p>`}
      </div>
      ${this.copied ? html`<p class="muted">${t("copied")}</p>` : nothing}
      <div class="actions">
        <button @click=${() => this.copy()}>${t("embed.copy")}</button>
        <button class="secondary" @click=${() => this.closeDialog()}>${t("close")}</button>
      </div>
      <section aria-labelledby="preview-title">
        <h3 id="preview-title">${t("embed.preview")}</h3>
        ${this.preview === null || (this.preview && !this.preview.previewKey)
          ? html`<p class="muted">${t("embed.noPreview")}</p>`
          : html`<p class="hint">${t("embed.previewNote", { origins: (view.origins ?? []).join(", ") })}</p><div id="preview" class="preview"></div>`}
      </section>
    </dialog>`;
  }
}

defineOnce("bd-embed-code-dialog", BdEmbedCodeDialog);
