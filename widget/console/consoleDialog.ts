import { ConsoleElement } from "./consoleElement.ts";

/**
 * What the console's dialogs share: a native <dialog> opened modal (the page behind is inert,
 * so focus stays inside; Escape closes it), focus on its first control, and focus back on the
 * button that opened it when it closes.
 */
export class ConsoleDialog extends ConsoleElement {
  private opener: HTMLElement | null = null;

  protected get dialogElement(): HTMLDialogElement | null {
    return this.renderRoot.querySelector("dialog");
  }

  protected async openDialog(opener: HTMLElement | null): Promise<void> {
    this.opener = opener;
    await this.updateComplete;
    const dialog = this.dialogElement;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>("[autofocus], input, select, textarea, button")?.focus();
  }

  protected closeDialog(): void {
    this.dialogElement?.close();
  }

  /** Bound to the dialog's close event (Escape included). */
  protected onClosed = (): void => {
    this.opener?.focus();
    this.opener = null;
  };
}
