import { html, LitElement, nothing, type PropertyDeclarations } from "lit";
import { ApiError, type ApiConfig } from "./api.ts";
import { defaultApiBase } from "./apiBase.ts";
import { toLang, translator, type Lang, type MessageKey, type Translate } from "./i18n.ts";
import { baseStyles } from "./styles.ts";

/** A problem the site owner must fix in the markup (no request is made). */
export class SetupProblem extends Error {
  constructor(readonly key: MessageKey) {
    super(key);
  }
}

export type EventName = "broker-widget:quote" | "broker-widget:lead" | "broker-widget:select";

/**
 * What the three widgets share: key/base/theme/lang attributes, translation, the polite
 * live region (rendered empty from the first paint, since a region that appears together
 * with its text is not announced), the problem notice, and event dispatch.
 */
export class BrokerElement extends LitElement {
  static override properties: PropertyDeclarations = {
    apiKey: { attribute: "api-key" },
    apiBase: { attribute: "api-base" },
    theme: { reflect: true },
    lang: { reflect: true },
    announcement: { state: true },
  };
  static override styles = [baseStyles];

  declare apiKey: string | undefined;
  declare apiBase: string | undefined;
  /** light | dark | auto (follows prefers-color-scheme live). */
  declare theme: string;
  declare announcement: string;

  constructor() {
    super();
    this.theme = "light";
    this.announcement = "";
  }

  /** The element's or an ancestor's lang attribute, else the page's <html lang>, else English. */
  get language(): Lang {
    const own = this.closest("[lang]")?.getAttribute("lang");
    return toLang(own || document.documentElement.lang);
  }

  get t(): Translate {
    return translator(this.language);
  }

  protected apiConfig(): ApiConfig {
    if (!this.apiKey) throw new SetupProblem("problem.missingKey");
    return { key: this.apiKey, base: this.apiBase || defaultApiBase(), language: this.language };
  }

  protected announce(message: string): void {
    // Clearing first makes a repeated identical message count as a change.
    this.announcement = "";
    queueMicrotask(() => (this.announcement = message));
  }

  protected renderLive() {
    return html`<div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>`;
  }

  /** Returns false when a listener called preventDefault() on a cancelable event. */
  protected emit(name: EventName, detail: object, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  protected problemMessage(error: unknown): string {
    if (error instanceof SetupProblem) return this.t(error.key);
    if (!(error instanceof ApiError)) return this.t("problem.server");
    if (error.status === 0) return this.t("problem.network");
    // A server key pasted into data-key: the fix is another kind of key, not another origin.
    if (error.code === "server_key_in_browser") return this.t("problem.serverKey");
    if (error.status === 401 || error.status === 403 || error.status === 404 || error.status === 429) {
      return this.t(`problem.${error.status}`);
    }
    return this.t("problem.server");
  }

  /** A visible notice instead of a blank box; the server's own words help the site owner. */
  protected renderProblem(error: unknown, retry?: () => void) {
    const status = error instanceof ApiError ? error.status : undefined;
    const ownerFacing = status === 401 || status === 403 || status === 404;
    const retryable = !(error instanceof SetupProblem) && !(status === 401 || status === 403);
    return html`<div class="notice problem" part="problem" role="alert">
      <p>${this.problemMessage(error)}</p>
      ${ownerFacing && error instanceof ApiError
        ? html`<p class="muted">${this.t("serverSaid", { message: error.message })}</p>`
        : nothing}
      ${retry && retryable ? html`<button class="secondary" part="button" @click=${retry}>${this.t("retry")}</button>` : nothing}
    </div>`;
  }
}

/** An aborted request is not a problem to show: a newer one replaced it. */
export function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === "AbortError";
}

export { defineOnce } from "./defineOnce.ts";
