import { html, nothing, type PropertyDeclarations } from "lit";
import type { z } from "zod";
import type { auditEntrySchema } from "../../src/router/directory/directoryViews.ts";
import type { Pagination } from "../../src/schemas/pagination.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { formatWhen, type ConsoleKey } from "./i18n.ts";

type AuditEntry = z.infer<typeof auditEntrySchema>;
const PAGE_SIZE = 20;

/** A value of the trail as a person reads it: text as is, lists joined, anything else as JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join("; ");
  return JSON.stringify(value);
}

/**
 * <bd-broker-history broker-id>: the broker's audit trail, newest first (directory.brokerHistory):
 * when, who (a key, a console session or the CLI), what changed (each field before → after)
 * and why. `version` is bumped by the broker page after a change, to read the trail again.
 */
export class BdBrokerHistory extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, brokerId: { attribute: "broker-id" }, version: { type: Number }, entries: { state: true }, pagination: { state: true } };
  declare brokerId: string;
  declare version: number;
  declare entries: AuditEntry[] | undefined;
  declare pagination: Pagination | undefined;

  protected override load(limit = PAGE_SIZE): Promise<void> {
    return this.attempt(async () => {
      const answer = await this.api.get<{ data: AuditEntry[]; pagination: Pagination }>(`/console/api/directory/brokers/${encodeURIComponent(this.brokerId)}/history`, { limit });
      this.entries = answer.data;
      this.pagination = answer.pagination;
    });
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has("version") && changed.get("version") !== undefined) void this.load(Math.min(100, Math.max(PAGE_SIZE, this.entries?.length ?? 0)));
  }

  override render() {
    const t = this.t;
    const entries = this.entries;
    return html`<section class="card" aria-labelledby="history">
      <h2 id="history">${t("history.heading")}</h2>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${entries === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${entries?.length === 0 ? html`<p>${t("history.empty")}</p>` : nothing}
      ${entries && entries.length > 0
        ? html`<div class="table-wrap"><table>
            <caption class="sr-only">${t("history.caption")}</caption>
            <thead><tr><th scope="col">${t("history.when")}</th><th scope="col">${t("history.who")}</th><th scope="col">${t("history.what")}</th><th scope="col">${t("history.why")}</th></tr></thead>
            <tbody>${entries.map((entry) => this.renderEntry(entry))}</tbody>
          </table></div>`
        : nothing}
      ${this.pagination && entries && this.pagination.total > entries.length
        ? html`<button class="secondary" @click=${() => this.load(Math.min(100, entries.length + PAGE_SIZE))}>${t("history.more")}</button>`
        : nothing}
    </section>`;
  }

  private renderEntry(entry: AuditEntry) {
    const t = this.t;
    const action = `action.${entry.action}` as ConsoleKey;
    const fields = Object.keys(entry.after ?? entry.before ?? {});
    return html`<tr>
      <td>${formatWhen(this.lang, entry.at, "")}</td>
      <td><code>${entry.actor}</code></td>
      <td>
        <strong>${action in CATALOGUE_ACTIONS ? t(action) : entry.action}</strong>${entry.reviewId ? html` · ${t("history.review", { id: entry.reviewId })}` : nothing}
        ${entry.before && fields.length > 0
          ? html`<ul>${fields.map((name) => html`<li><code>${name}</code>: ${shown(entry.before?.[name])} → ${shown(entry.after?.[name])}</li>`)}</ul>`
          : nothing}
      </td>
      <td>${entry.reason ?? "—"}</td>
    </tr>`;
  }
}

/** The actions the catalogue names; another (a future one) is shown as the server says it. */
const CATALOGUE_ACTIONS = { "action.created": 1, "action.updated": 1, "action.published": 1, "action.unpublished": 1, "action.hidden": 1, "action.restored": 1 };

defineOnce("bd-broker-history", BdBrokerHistory);
