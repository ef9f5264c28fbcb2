import { css, html, nothing, type PropertyDeclarations } from "lit";
import { BrokerElement, defineOnce } from "./base.ts";
import "./brokerProfile.ts";

/**
 * <broker-profile-dialog>: the directory's broker profile in a modal <dialog>. The browser's
 * modal dialog keeps keyboard focus inside and makes the page behind inert; Escape, the Close
 * button and a click on the backdrop close it; focus then returns to the card link that opened
 * it. Opening adds the card's fragment (#slug) to the history, so the Back button closes the
 * profile and Forward opens it again — as a visitor expects of a "page" they opened.
 *
 * @csspart dialog - the dialog box
 * @csspart close - the Close button
 */
export class BrokerProfileDialog extends BrokerElement {
  static override properties: PropertyDeclarations = {
    slug: { state: true },
    name: { state: true },
  };
  static override styles = [
    ...BrokerElement.styles,
    css`
      :host {
        display: contents;
      }
      dialog {
        width: min(46rem, calc(100vw - 1rem));
        max-height: calc(100dvh - 2rem);
        padding: 0;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_bg);
        color: var(--_fg);
        overflow: auto;
        overscroll-behavior: contain;
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.55);
      }
      .bar {
        position: sticky;
        top: 0;
        z-index: 1;
        display: flex;
        justify-content: flex-end;
        padding: 0.5rem;
        background: var(--_bg);
        border-bottom: 1px solid var(--_border);
      }
      .content {
        padding: 1rem;
      }
    `,
  ];

  declare slug: string | undefined;
  declare name: string;
  private opener: HTMLElement | undefined;
  /** The fragment this dialog pushed on the history, while it is the current entry. */
  private pushed: string | undefined;
  private readonly onHistory = () => this.followLocation();

  constructor() {
    super();
    this.name = "";
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener("popstate", this.onHistory);
    window.addEventListener("hashchange", this.onHistory);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener("popstate", this.onHistory);
    window.removeEventListener("hashchange", this.onHistory);
  }

  get isOpen(): boolean {
    return this.dialog?.open === true;
  }

  private get dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector("dialog");
  }

  /**
   * Shows a broker's profile. `fragment` ("#slug") goes on the history unless the address
   * already has it (a deep link, or Forward); `opener` gets focus back on close.
   */
  async open(slug: string, name: string, opener: HTMLElement | undefined, fragment?: string): Promise<void> {
    this.slug = slug;
    this.name = name;
    this.opener = opener;
    if (fragment) {
      if (location.hash !== fragment) history.pushState({ brokerProfile: slug }, "", fragment);
      this.pushed = fragment;
    }
    await this.updateComplete;
    const dialog = this.dialog;
    if (!dialog) return;
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    this.renderRoot.querySelector<HTMLElement>("[part~=close]")?.focus();
  }

  /** The visitor closes it: through the history when it put an entry there, so Back stays in step. */
  close(): void {
    if (this.pushed && location.hash === this.pushed) history.back();
    else this.closeNow();
  }

  /** Back (or any change of the address) away from the profile's fragment closes it. */
  private followLocation(): void {
    if (this.isOpen && this.pushed && location.hash !== this.pushed) this.closeNow();
  }

  private closeNow(): void {
    this.pushed = undefined;
    const dialog = this.dialog;
    if (dialog?.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }
    this.opener?.focus();
  }

  private onCancel(event: Event): void {
    // Escape: closed our way, so the history entry goes too.
    event.preventDefault();
    this.close();
  }

  private onClick(event: MouseEvent): void {
    // A click on the backdrop lands on the dialog element itself.
    if (event.target === this.dialog) this.close();
  }

  override render() {
    const { t } = this;
    return html`<dialog part="dialog" aria-label=${this.name ? t("profileOf", { name: this.name }) : nothing} @cancel=${this.onCancel} @click=${this.onClick}>
      <div class="bar">
        <button type="button" class="secondary" part="button close" @click=${() => this.close()}>${t("close")}</button>
      </div>
      <div class="content">
        ${this.slug
          ? html`<broker-profile .apiKey=${this.apiKey} .apiBase=${this.apiBase} .theme=${this.theme} lang=${this.language} slug=${this.slug}></broker-profile>`
          : nothing}
      </div>
    </dialog>`;
  }
}

defineOnce("broker-profile-dialog", BrokerProfileDialog);
