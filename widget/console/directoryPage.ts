import { html, nothing, type PropertyDeclarations } from "lit";
import { BROKER_STATES } from "../../src/domain/directoryStates.ts";
import type { DirectoryBroker } from "../../src/router/directory/directoryViews.ts";
import type { Pagination } from "../../src/schemas/pagination.ts";
import { withQuery } from "./api.ts";
import { ConsoleElement, defineOnce } from "./consoleElement.ts";
import { pager } from "./pager.ts";

interface Filters {
  q: string;
  state: string;
}
const PAGE_SIZE = 20;

/**
 * <bd-directory-page>: the operator's directory, every broker in every state, searched by name
 * or slug and filtered by state (directory.listBrokers). The filters live in the URL's query,
 * so a search can be bookmarked; each broker opens its own page.
 */
export class BdDirectoryPage extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, brokers: { state: true }, pagination: { state: true }, filters: { state: true }, page: { state: true } };
  declare brokers: DirectoryBroker[] | undefined;
  declare pagination: Pagination | undefined;
  declare filters: Filters;
  declare page: number;

  constructor() {
    super();
    const query = new URLSearchParams(location.search);
    this.filters = { q: query.get("q") ?? "", state: query.get("state") ?? "" };
    this.page = Math.max(1, Number(query.get("page")) || 1);
  }

  protected override load(): Promise<void> {
    return this.attempt(async () => {
      const answer = await this.api.get<{ data: DirectoryBroker[]; pagination: Pagination }>("/console/api/directory/brokers", { ...this.filters, page: this.page, limit: PAGE_SIZE });
      this.brokers = answer.data;
      this.pagination = answer.pagination;
      history.replaceState(null, "", withQuery("/console/directory", { ...this.filters, page: this.page > 1 ? this.page : undefined }));
      this.announce(this.t("dir.count", { total: answer.pagination.total, page: this.page, pages: Math.max(1, answer.pagination.totalPages) }));
    });
  }

  private apply(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = { q: String(data.get("q") ?? "").trim(), state: String(data.get("state") ?? "") };
    this.page = 1;
    void this.load();
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
      ${this.brokers === undefined && !this.error ? html`<p>${t("loading")}</p>` : nothing}
      ${this.brokers?.length === 0 ? html`<p>${t("dir.empty")}</p>` : nothing}
      ${this.brokers && this.brokers.length > 0 ? this.renderTable(this.brokers) : nothing}
      ${pager(this.pagination, t, "dir.count", (page) => {
        this.page = page;
        void this.load();
      })}
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
