import { html, nothing, type PropertyDeclarations } from "lit";
import type { z } from "zod";
import type { keyUsageOutput } from "../../src/router/usage/keyUsage.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { localeOf } from "./i18n.ts";
import "./usageChart.ts";

type Usage = z.infer<typeof keyUsageOutput>;

/**
 * <bd-usage-page>: requests per key per day over the last 30 days and the rate-limit refusals,
 * as a chart and, for screen readers and exact figures, as a table, with totals.
 */
export class BdUsagePage extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, usage: { state: true } };
  declare usage: Usage | undefined;


  protected override load(): Promise<void> {
    return this.attempt(async () => {
      this.usage = await this.api.get<Usage>("/console/api/usage", { days: 30 });
      const n = (v: number) => v.toLocaleString(localeOf(this.lang));
      this.announce(this.t("usage.totals", { requests: n(this.usage.totals.requests), refused: n(this.usage.totals.refused) }));
    });
  }

  override render() {
    const t = this.t;
    const usage = this.usage;
    const n = (v: number) => v.toLocaleString(localeOf(this.lang));
    const refusedPerDay = usage ? usage.days.map((_, i) => usage.keys.reduce((sum, k) => sum + (k.refused[i] ?? 0), 0)) : [];
    return html`
      <h1 tabindex="-1">${t("usage.heading")}</h1>
      <p class="muted">${t("usage.intro")}</p>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${!usage && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${usage
        ? html`<p class="card" id="totals"><strong>${t("usage.totals", { requests: n(usage.totals.requests), refused: n(usage.totals.refused) })}</strong></p>
            ${usage.keys.length === 0
              ? html`<p>${t("usage.empty")}</p>`
              : html`<section class="card" aria-labelledby="chart-title">
                    <h2 id="chart-title">${t("usage.chart")}</h2>
                    <bd-usage-chart lang=${this.lang} label=${t("usage.chart")} .days=${usage.days}
                      .series=${[...usage.keys.map((k) => ({ label: `${k.name} (${k.prefix}…)`, values: k.requests })), { label: t("usage.refused"), values: refusedPerDay }]}></bd-usage-chart>
                  </section>
                  <div class="table-wrap"><table class="stack">
                    <caption>${t("usage.table")}</caption>
                    <thead><tr><th scope="col">${t("col.name")}</th><th scope="col">${t("col.key")}</th><th scope="col">${t("usage.requests")}</th><th scope="col">${t("usage.refused")}</th></tr></thead>
                    <tbody>${usage.keys.map(
                      (k) => html`<tr><th scope="row">${k.name}</th><td data-label=${t("col.key")}><code>${k.prefix}…</code></td><td data-label=${t("usage.requests")}>${n(k.totalRequests)}</td><td data-label=${t("usage.refused")}>${n(k.totalRefused)}</td></tr>`,
                    )}</tbody>
                  </table></div>`}`
        : nothing}
    `;
  }
}

defineOnce("bd-usage-page", BdUsagePage);
