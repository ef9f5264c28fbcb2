import { html, type PropertyDeclarations } from "lit";
import type { DirectoryBroker } from "../../src/router/directory/directoryViews.ts";
import type { BrokerSavedEvent } from "./brokerForm.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import type { BdPublishDialog } from "./publishDialog.ts";
import "./brokerForm.ts";
import "./brokerHistory.ts";
import "./publishDialog.ts";

/**
 * <bd-broker-page broker-id>: one broker in any state, for the operator: its state with Publish
 * or Unpublish (with a reason), every field and office to edit, a link to its reviews, and its
 * history, read again after each change made here.
 */
export class BdBrokerPage extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, brokerId: { attribute: "broker-id" }, broker: { state: true }, version: { state: true } };
  declare brokerId: string;
  declare broker: DirectoryBroker | undefined;
  /** Bumped at each change, so the history reads the trail again. */
  declare version: number;

  constructor() {
    super();
    this.version = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener("broker-saved", (event) => {
      this.broker = (event as BrokerSavedEvent).broker;
      this.version++;
    });
  }

  protected override load(): Promise<void> {
    return this.attempt(async () => {
      this.broker = await this.api.get<DirectoryBroker>(`/console/api/directory/brokers/${encodeURIComponent(this.brokerId)}`);
    });
  }

  private publishing(event: MouseEvent): void {
    const dialog = this.renderRoot.querySelector<BdPublishDialog>("bd-publish-dialog");
    if (this.broker) dialog?.show(this.broker, event.currentTarget as HTMLElement);
  }

  override render() {
    const t = this.t;
    const back = html`<p>${this.link("/console/directory", `← ${t("broker.back")}`)}</p>`;
    if (this.error && !this.broker) return html`${back}${this.renderProblem(this.error, () => this.load())}`;
    const b = this.broker;
    if (!b) return html`${back}<p>${t("loading")}</p>`;
    const published = b.state === "published";
    return html`${back}
      <h1 tabindex="-1">${b.name} <span class="badge ${b.state}">${t(`state.${b.state}`)}</span></h1>
      <p class="muted">
        <code>${b.slug}</code> · ${b.reviewCount > 0 ? `${b.averageRating.toFixed(1)} ★ (${b.reviewCount})` : "—"} ·
        ${this.link(`/console/reviews?broker=${encodeURIComponent(b.id)}`, t("broker.reviewsLink"))}
      </p>
      <div class="actions">
        <button class=${published ? "danger" : ""} @click=${this.publishing}>${t(published ? "broker.unpublish" : "broker.publish")}</button>
      </div>
      <bd-broker-form .api=${this.api} lang=${this.lang} .broker=${b}></bd-broker-form>
      <bd-broker-history .api=${this.api} lang=${this.lang} broker-id=${b.id} .version=${this.version}></bd-broker-history>
      <bd-publish-dialog .api=${this.api} lang=${this.lang}></bd-publish-dialog>`;
  }
}

defineOnce("bd-broker-page", BdBrokerPage);
