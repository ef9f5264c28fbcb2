import { html, nothing, type PropertyDeclarations } from "lit";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks/webhookEvents.ts";
import type { DeliveryView, EndpointView } from "../../src/router/webhooks/webhookView.ts";
import { ConsoleElement, defineOnce, issuesByField } from "./consoleElement.ts";
import { formatWhen } from "./i18n.ts";
import { reasonText } from "./disabledReasonText.ts";

type WithSecret = EndpointView & { secret: string };

/**
 * <bd-webhooks-page>: Settings → Webhooks (issue 28). The workspace's endpoints with their
 * status (and why one is disabled), Register, and per endpoint Send test event, Roll secret,
 * Disable/Enable, Delete and its last deliveries (status, attempts, response code, latency),
 * each with Resend. A secret is shown once, after registration or a roll.
 */
export class BdWebhooksPage extends ConsoleElement {
  static override properties: PropertyDeclarations = {
    ...ConsoleElement.properties,
    endpoints: { state: true },
    deliveries: { state: true },
    shown: { state: true },
    secret: { state: true },
    fieldErrors: { state: true },
  };
  declare endpoints: EndpointView[] | undefined;
  /** The endpoint whose deliveries are shown, and them. */
  declare shown: string | undefined;
  declare deliveries: DeliveryView[] | undefined;
  /** A secret just made, shown once: for which endpoint. */
  declare secret: { url: string; secret: string } | undefined;
  declare fieldErrors: Record<string, string>;
  /** The next look while a shown delivery awaits its first attempt, and how many looks are left. */
  private watching: ReturnType<typeof setTimeout> | undefined;
  private looksLeft = 0;

  constructor() {
    super();
    this.fieldErrors = {};
  }

  protected override load(): Promise<void> {
    return this.attempt(async () => {
      this.endpoints = (await this.api.get<{ data: EndpointView[] }>("/console/api/webhooks")).data;
      if (this.shown) await this.loadDeliveries(this.shown);
      this.watch();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.watching);
  }

  /**
   * A delivery just queued (a test event, a resend) is attempted within a second or two: while a
   * shown one has no outcome yet, the page looks again every second (ten times at most, after each
   * action), so its outcome appears without a click.
   */
  private watch(): void {
    clearTimeout(this.watching);
    // No attempt recorded yet (a claimed one in flight counts in `attempts` before it has an outcome).
    const waiting = this.deliveries?.some((d) => d.status === "pending" && d.lastAttemptAt === null);
    if (!waiting || !this.isConnected || this.looksLeft <= 0) return;
    this.looksLeft--;
    this.watching = setTimeout(() => void this.load(), 1_000);
  }

  private async loadDeliveries(id: string): Promise<void> {
    this.shown = id;
    this.deliveries = (await this.api.get<{ data: DeliveryView[] }>(`/console/api/webhooks/${encodeURIComponent(id)}/deliveries`)).data;
  }

  /**
   * Shows the endpoint's deliveries, and the endpoints again with them: an attempt made since the
   * page loaded may have disabled one (410), and the button is how the page is looked at again.
   */
  private showDeliveries(id: string): Promise<void> {
    this.shown = id;
    this.looksLeft = 10;
    return this.load();
  }

  private async register(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const body = { url: String(data.get("url") ?? ""), events: data.getAll("events").map(String), description: String(data.get("description") ?? "") || undefined };
    try {
      const made = await this.api.send<WithSecret>("POST", "/console/api/webhooks", body);
      this.fieldErrors = {};
      this.secret = { url: made.url, secret: made.secret };
      form.reset();
      this.announce(this.t("webhooks.registered"));
      await this.load();
    } catch (error) {
      this.fieldErrors = issuesByField(error);
      if (Object.keys(this.fieldErrors).length === 0) this.error = error;
    }
  }

  /** One action on an endpoint, then the page again, with what it says announced. */
  private async act(work: () => Promise<unknown>, message: string): Promise<void> {
    this.looksLeft = 10;
    await this.attempt(async () => {
      await work();
      this.announce(message);
      await this.load();
    });
  }

  override render() {
    const t = this.t;
    return html`
      <h1 tabindex="-1">${t("webhooks.heading")}</h1>
      <p class="muted">${t("webhooks.intro")}</p>
      ${this.secret
        ? html`<div class="notice" role="status">
            <p>${t("webhooks.secretOnce", { url: this.secret.url })}</p>
            <p><code>${this.secret.secret}</code></p>
            <button class="secondary" @click=${() => (this.secret = undefined)}>${t("close")}</button>
          </div>`
        : nothing}
      ${this.renderForm()}
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${this.endpoints === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.endpoints?.length === 0 ? html`<p>${t("webhooks.empty")}</p>` : nothing}
      ${this.endpoints && this.endpoints.length > 0 ? this.renderEndpoints(this.endpoints) : nothing}
      ${this.shown && this.deliveries ? this.renderDeliveries(this.shown, this.deliveries) : nothing}
    `;
  }

  private renderForm() {
    const t = this.t;
    const problem = (field: string) => (this.fieldErrors[field] ? html`<p class="field-error" id="wh-${field}-error">${this.fieldErrors[field]}</p>` : nothing);
    return html`<form @submit=${this.register} novalidate>
      <fieldset>
        <legend>${t("webhooks.register")}</legend>
        <label class="wide">${t("webhooks.url")} <input name="url" type="url" required placeholder="https://crm.example.ca/hooks" aria-invalid=${this.fieldErrors.url ? "true" : "false"} aria-describedby="wh-url-error" /></label>
        ${problem("url")}
        <fieldset class="checks">
          <legend>${t("webhooks.events")}</legend>
          ${WEBHOOK_EVENT_TYPES.map((type) => html`<label><input type="checkbox" name="events" value=${type} ?checked=${type === "lead.created"} /> <code>${type}</code></label> `)}
        </fieldset>
        ${problem("events")}
        <label class="wide">${t("webhooks.description")} <input name="description" maxlength="200" /></label>
        <p><button type="submit">${t("webhooks.register")}</button></p>
      </fieldset>
    </form>`;
  }

  private renderEndpoints(endpoints: EndpointView[]) {
    const t = this.t;
    const path = (id: string, rest = "") => `/console/api/webhooks/${encodeURIComponent(id)}${rest}`;
    // At phone widths both tables stack (pageStyles' table.stack): each cell says its column with data-label.
    return html`<div class="table-wrap"><table class="stack">
      <caption class="sr-only">${t("webhooks.caption")}</caption>
      <thead><tr>
        <th scope="col">${t("webhooks.url")}</th><th scope="col">${t("webhooks.events")}</th><th scope="col">${t("col.status")}</th>
        <th scope="col">${t("col.created")}</th><th scope="col">${t("col.actions")}</th>
      </tr></thead>
      <tbody>${endpoints.map(
        (e) => html`<tr data-endpoint-id=${e.id}>
          <th scope="row"><code>${e.url}</code>${e.description ? html`<br /><span class="muted">${e.description}</span>` : nothing}</th>
          <td data-label=${t("webhooks.events")}>${e.events.map((type) => html`<span class="badge">${type}</span> `)}</td>
          <td data-label=${t("col.status")}><span class="badge ${e.status === "enabled" ? "active" : "revoked"}">${t(`webhooks.status.${e.status}`)}</span>
            ${e.disabledReason ? html`<br /><span class="muted">${t("webhooks.why", { reason: reasonText(t, e.disabledReason), when: formatWhen(this.lang, e.disabledAt, "") })}</span>` : nothing}</td>
          <td data-label=${t("col.created")}>${formatWhen(this.lang, e.createdAt, "")}</td>
          <td><div class="row">
            <button class="secondary" @click=${() => this.act(async () => {
              await this.api.send("POST", path(e.id, "/test"));
              // Its deliveries shown: the test event's outcome appears there (watch()).
              this.shown = e.id;
            }, t("webhooks.testSent"))}>${t("webhooks.test")}</button>
            <button class="secondary" @click=${() => this.showDeliveries(e.id)}>${t("webhooks.deliveries")}</button>
            <button class="secondary" @click=${() => this.act(async () => {
              const rolled = await this.api.send<WithSecret>("POST", path(e.id, "/roll-secret"), { overlap: "24h" });
              this.secret = { url: rolled.url, secret: rolled.secret };
            }, t("webhooks.rolled"))}>${t("webhooks.roll")}</button>
            <button class="secondary" @click=${() => this.act(() => this.api.send("PATCH", path(e.id), { enabled: e.status !== "enabled" }), t("webhooks.changed"))}>${t(e.status === "enabled" ? "webhooks.disable" : "webhooks.enable")}</button>
            <button class="danger" @click=${() => confirm(t("webhooks.confirmDelete", { url: e.url })) && this.act(async () => {
              await this.api.send("DELETE", path(e.id));
              if (this.shown === e.id) this.shown = undefined;
            }, t("webhooks.deleted"))}>${t("webhooks.delete")}</button>
          </div></td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private renderDeliveries(endpointId: string, deliveries: DeliveryView[]) {
    const t = this.t;
    const endpoint = this.endpoints?.find((e) => e.id === endpointId);
    return html`<h2>${t("webhooks.deliveriesOf", { url: endpoint?.url ?? endpointId })}</h2>
      ${deliveries.length === 0 ? html`<p>${t("webhooks.noDeliveries")}</p>` : html`<div class="table-wrap"><table class="stack">
        <caption class="sr-only">${t("webhooks.deliveriesCaption")}</caption>
        <thead><tr>
          <th scope="col">${t("webhooks.event")}</th><th scope="col">${t("col.status")}</th><th scope="col">${t("webhooks.attempts")}</th>
          <th scope="col">${t("webhooks.response")}</th><th scope="col">${t("webhooks.latency")}</th><th scope="col">${t("webhooks.lastAttempt")}</th>
          <th scope="col">${t("col.actions")}</th>
        </tr></thead>
        <tbody>${deliveries.map(
          (d) => html`<tr data-delivery-id=${d.id}>
            <th scope="row"><code>${d.type}</code><br /><code class="muted">${d.eventId}</code></th>
            <td data-label=${t("col.status")}><span class="badge ${d.status === "delivered" ? "active" : d.status === "failed" ? "revoked" : ""}">${t(`webhooks.delivery.${d.status}`)}</span>
              ${d.error ? html`<br /><span class="muted">${d.error}</span>` : nothing}
              ${d.status === "pending" && d.attempts > 0 ? html`<br /><span class="muted">${t("webhooks.nextAttempt", { when: formatWhen(this.lang, d.nextAttemptAt, "") })}</span>` : nothing}</td>
            <td data-label=${t("webhooks.attempts")}>${d.attempts}</td>
            <td data-label=${t("webhooks.response")}>${d.responseStatus ?? "—"}</td>
            <td data-label=${t("webhooks.latency")}>${d.latencyMs === null ? "—" : `${d.latencyMs} ms`}</td>
            <td data-label=${t("webhooks.lastAttempt")}>${formatWhen(this.lang, d.lastAttemptAt, t("never"))}</td>
            <td><button class="secondary" @click=${() => this.act(() => this.api.send("POST", `/console/api/webhooks/${encodeURIComponent(endpointId)}/deliveries/${d.id}/resend`), t("webhooks.resent"))}>${t("webhooks.resend")}</button></td>
          </tr>`,
        )}</tbody>
      </table></div>`}`;
  }
}

defineOnce("bd-webhooks-page", BdWebhooksPage);
