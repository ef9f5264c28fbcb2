import { html, LitElement, nothing, type PropertyDeclarations } from "lit";
import { ApiError, type ConsoleApi } from "./api.ts";
import { consoleTranslator, type Lang, type T } from "./i18n.ts";
import { pageStyles } from "./styles.ts";

/** Asks <bd-console> to say something in its polite live region. */
export class AnnounceEvent extends Event {
  constructor(readonly message: string) {
    super("bd-announce", { bubbles: true, composed: true });
  }
}

/** Asks <bd-console> to show another page (a path under /console). */
export class NavigateEvent extends Event {
  constructor(readonly path: string) {
    super("bd-navigate", { bubbles: true, composed: true });
  }
}

/** What every console page shares: the language, the API, announcing, and showing a problem. */
export class ConsoleElement extends LitElement {
  static override properties: PropertyDeclarations = { lang: {}, api: { attribute: false }, error: { state: true } };
  static override styles = [pageStyles];
  declare lang: Lang;
  declare api: ConsoleApi;
  /** The last failure of load(), shown with a Retry. */
  declare error: unknown;

  /** What the page fetches when it appears (and on Retry); pages that fetch nothing leave it. */
  protected load(): Promise<void> {
    return Promise.resolve();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** Runs a fetch, keeping its failure in `error` for the page to show. */
  protected async attempt(work: () => Promise<void>): Promise<void> {
    try {
      this.error = undefined;
      await work();
    } catch (error) {
      this.error = error;
    }
  }

  get t(): T {
    return consoleTranslator(this.lang === "fr" ? "fr" : "en");
  }

  protected announce(message: string): void {
    this.dispatchEvent(new AnnounceEvent(message));
  }

  protected navigate(path: string): void {
    this.dispatchEvent(new NavigateEvent(path));
  }

  /** A link inside the console that changes the page without reloading it. */
  protected link(path: string, label: unknown) {
    return html`<a href=${path} @click=${(event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      this.navigate(path);
    }}>${label}</a>`;
  }

  protected renderProblem(error: unknown, retry?: () => void) {
    const message = error instanceof ApiError ? error.message : String(error);
    return html`<div class="notice problem" role="alert">
      <p>${this.t("problem", { message })}</p>
      ${retry ? html`<button class="secondary" @click=${retry}>${this.t("retry")}</button>` : nothing}
    </div>`;
  }
}

export { defineOnce } from "../defineOnce.ts";

/** Field problems from a 422 answer, by field path ("name", "scopes.0" → "scopes"). */
export function issuesByField(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  for (const issue of error.issues) {
    const field = issue.path.split(".")[0] ?? "";
    out[field] ??= issue.message;
  }
  return out;
}
