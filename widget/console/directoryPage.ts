import { html, nothing } from "lit";
import { BROKER_STATES } from "../../src/domain/directoryStates.ts";
import type { DirectoryBroker } from "../../src/router/directory/directoryViews.ts";
import { defineOnce } from "./consoleElement.ts";
import { PagedListPage } from "./pagedListPage.ts";

type Filters = {
  q: string;
  state: string;
};

/**
 * <bd-directory-page>: the operator's directory, every broker in every state, searched by name
 * or slug and filtered by state (directory.listBrokers). The filters live in the URL's query,
 * so a search can be bookmarked; each broker opens its own page.
 */
export class BdDirectoryPage extends PagedListPage<DirectoryBroker, Filters> {
  protected readonly route = "/console/directory";
  protected readonly endpoint = "/console/api/directory/brokers";
  protected readonly countKey = "dir.count";

  constructor() {
    super(["q", "state"]);
  }

  override render() {
    const t = this.t;
    return html`
      <h1 tabindex="-1">${t("dir.heading")}</h1>
      <p class="muted">${t("dir.intro")}</p>
      <form class="card" role="search" aria-label=${t("dir.filters")} @submit=${this.apply}>
        <div class="row">
          <div class="field"><label for="f-q">${t("dir.search")}</label><input id="f-q" name="q" type="search" maxlength="200" .value=${this.filters.q} /></div>
          <div class="field"><label for="f-state">${t("dir.state")}</label>
            <select id="f-state" name="state">
              <option value="">${t("dir.anyState")}</option>
              ${BROKER_STATES.map((s) => html`<option value=${s} ?selected=${this.filters.state === s}>${t(`state.${s}`)}</option>`)}
            </select></div>
          <div class="field"><button type="submit">${t("dir.apply")}</button></div>
        </div>
      </form>
      ${this.error ? this.renderProblem(this.error, () => this.load()) : nothing}
      ${this.rows === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.rows?.length === 0 ? html`<p>${t("dir.empty")}</p>` : nothing}
      ${this.rows && this.rows.length > 0 ? this.renderTable(this.rows) : nothing}
      ${this.renderPager()}
    `;
  }

  private renderTable(brokers: DirectoryBroker[]) {
    const t = this.t;
    return html`<div class="table-wrap"><table>
      <caption class="sr-only">${t("dir.caption")}</caption>
      <thead><tr><th scope="col">${t("col.name")}</th><th scope="col">${t("dir.city")}</th><th scope="col">${t("dir.rating")}</th><th scope="col">${t("col.status")}</th></tr></thead>
      <tbody>${brokers.map(
        (b) => html`<tr>
          <th scope="row">${this.link(`/console/directory/${encodeURIComponent(b.id)}`, b.name)}<br /><code class="muted">${b.slug}</code></th>
          <td>${b.city}, ${b.province}</td>
          <td>${b.reviewCount > 0 ? `${b.averageRating.toFixed(1)} ★ (${b.reviewCount})` : "—"}</td>
          <td><span class="badge ${b.state}">${t(`state.${b.state}`)}</span></td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }
}

defineOnce("bd-directory-page", BdDirectoryPage);
