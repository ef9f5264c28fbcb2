import { html, nothing, type PropertyDeclarations } from "lit";
import { ConsoleDialog } from "./consoleDialog.ts";
import { issuesByField } from "./consoleElement.ts";

/**
 * A dialog holding a form whose fields the server checks again (Create key, Edit key): the
 * errors by field, each shown beside its field (`fieldError`, wired by `invalid` and `described`
 * for screen readers), focus on the first field refused, and a problem above the form for a
 * refusal that names no field. `send` checks in the browser first, then sends.
 */
export class FormDialog extends ConsoleDialog {
  static override properties: PropertyDeclarations = {
    ...ConsoleDialog.properties,
    errors: { state: true },
    sending: { state: true },
    problem: { state: true },
  };
  declare errors: Record<string, string>;
  declare sending: boolean;
  declare problem: unknown;

  constructor() {
    super();
    this.errors = {};
    this.sending = false;
  }

  /** The browser's own check (`errors`), then the request; `done` with its answer, else the server's refusal shown. */
  protected async send<T>(errors: Record<string, string>, request: () => Promise<T>, done: (answer: T) => void): Promise<void> {
    this.errors = errors;
    this.problem = undefined;
    if (Object.keys(errors).length > 0) return this.focusFirstInvalid();
    this.sending = true;
    try {
      done(await request());
    } catch (error) {
      this.errors = issuesByField(error);
      if (Object.keys(this.errors).length === 0) this.problem = error;
      else this.focusFirstInvalid();
    } finally {
      this.sending = false;
    }
  }

  protected focusFirstInvalid(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  /** The field's error, with the id `described` points at (`e-NAME`; its hint, if any, is `h-NAME`). */
  protected fieldError(name: string) {
    return this.errors[name] ? html`<p class="error" id="e-${name}">${this.errors[name]}</p>` : nothing;
  }

  protected invalid(name: string) {
    return this.errors[name] ? "true" : nothing;
  }

  protected described(name: string, hint = false) {
    return [hint ? `h-${name}` : "", this.errors[name] ? `e-${name}` : ""].filter(Boolean).join(" ") || nothing;
  }
}
