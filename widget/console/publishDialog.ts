import { html, nothing, type PropertyDeclarations } from "lit";
import type { DirectoryBroker } from "../../src/router/directory/directoryViews.ts";
import { ConsoleDialog } from "./consoleDialog.ts";
import { defineOnce } from "./consoleElement.ts";
import { BrokerSavedEvent, fieldErrors } from "./brokerForm.ts";

/**
 * <bd-publish-dialog>: publishes a broker (a reason may be given) or unpublishes it (a reason is
 * required: it goes on the history and says why the broker left). Fires `broker-saved`.
 */
export class BdPublishDialog extends ConsoleDialog {
  static override properties: PropertyDeclarations = { ...ConsoleDialog.properties, broker: { state: true }, problem: { state: true }, sending: { state: true }, reasonError: { state: true } };
  declare broker: DirectoryBroker | undefined;
  declare problem: unknown;
  declare sending: boolean;
  declare reasonError: string | undefined;

  constructor() {
    super();
    this.sending = false;
  }

  show(broker: DirectoryBroker, opener: HTMLElement): void {
    this.broker = broker;
    this.problem = undefined;
    this.reasonError = undefined;
    void this.openDialog(opener).then(() => {
      const reason = this.renderRoot.querySelector<HTMLInputElement>("#reason");
      if (reason) reason.value = "";
    });
  }

  private get unpublishing(): boolean {
    return this.broker?.state === "published";
  }

  private async confirm(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const broker = this.broker;
    if (!broker) return;
    const t = this.t;
    const reason = this.renderRoot.querySelector<HTMLInputElement>("#reason")?.value.trim() ?? "";
    this.reasonError = this.unpublishing && reason === "" ? t("error.required") : undefined;
    if (this.reasonError) return this.renderRoot.querySelector<HTMLInputElement>("#reason")?.focus();
    this.sending = true;
    try {
      const action = this.unpublishing ? "unpublish" : "publish";
      const saved = await this.api.send<DirectoryBroker>("POST", `/console/api/directory/brokers/${encodeURIComponent(broker.id)}/${action}`, { reason: reason || undefined });
      this.closeDialog();
      this.announce(t(saved.state === "published" ? "broker.published" : "broker.unpublishedDone", { name: saved.name }));
      this.dispatchEvent(new BrokerSavedEvent(saved));
    } catch (error) {
      this.reasonError = fieldErrors(error).reason;
      if (!this.reasonError) this.problem = error;
    } finally {
      this.sending = false;
    }
  }

  override render() {
    const t = this.t;
    const name = this.broker?.name ?? "";
    const un = this.unpublishing;
    return html`<dialog aria-labelledby="publish-title" aria-describedby="publish-body" @close=${this.onClosed}>
      <form novalidate @submit=${this.confirm}>
        <h2 id="publish-title">${t(un ? "unpublish.title" : "publish.title", { name })}</h2>
        <p id="publish-body">${t(un ? "unpublish.body" : "publish.body")}</p>
        ${this.problem ? this.renderProblem(this.problem) : nothing}
        <div class="field">
          <label for="reason">${t(un ? "unpublish.reason" : "publish.reason")}</label>
          <input id="reason" maxlength="1000" ?required=${un} aria-invalid=${this.reasonError ? "true" : nothing} aria-describedby=${this.reasonError ? "e-reason" : nothing} />
          ${this.reasonError ? html`<p class="error" id="e-reason">${this.reasonError}</p>` : nothing}
        </div>
        <div class="actions">
          <button type="submit" class=${un ? "danger" : ""} ?disabled=${this.sending}>${t(un ? "broker.unpublish" : "broker.publish")}</button>
          <button type="button" class="secondary" @click=${() => this.closeDialog()}>${t("cancel")}</button>
        </div>
      </form>
    </dialog>`;
  }
}

defineOnce("bd-publish-dialog", BdPublishDialog);
