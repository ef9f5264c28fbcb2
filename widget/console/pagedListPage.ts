import type { PropertyDeclarations } from "lit";
import type { Pagination } from "../../src/schemas/pagination.ts";
import { withQuery } from "./api.ts";
import { ConsoleElement } from "./consoleElement.ts";
import type { ConsoleKey } from "./i18n.ts";
import { pager } from "./pager.ts";

/** How many rows a console list shows a page. */
const PAGE_SIZE = 20;

/**
 * What the console's filtered, paged lists share (leads, the operator's directory, the review
 * queue), written once: the filters and the page live in the URL's query, so a filtered list
 * can be bookmarked and reloaded; a submitted filter form starts again at page 1; each load
 * replaces the URL and may announce the count; previous / next under the list.
 *
 * A page names its filters (the form's field names, which are also the API's query
 * parameters), its console path, the API path it reads and the message that counts it.
 *
 * @example
 * class BdLeadsPage extends PagedListPage<LeadView, { status: string; q: string }> {
 *   protected readonly route = "/console/leads";
 *   protected readonly endpoint = "/console/api/leads";
 *   protected readonly countKey = "leads.count";
 *   constructor() { super(["status", "q"]); }
 * }
 */
export abstract class PagedListPage<Row, Filters extends Record<string, string>> extends ConsoleElement {
  static override properties: PropertyDeclarations = { ...ConsoleElement.properties, rows: { state: true }, pagination: { state: true }, filters: { state: true }, page: { state: true } };
  /** The current page's rows; undefined until the first answer. */
  declare rows: Row[] | undefined;
  declare pagination: Pagination | undefined;
  declare filters: Filters;
  declare page: number;
  protected abstract readonly route: string;
  protected abstract readonly endpoint: string;
  /** The message counting the list (takes total, page and pages): the pager's label, and what a load announces. */
  protected abstract readonly countKey: ConsoleKey;
  /** Whether each load announces the count (a page that announces its own changes turns it off). */
  protected readonly announcesCount: boolean = true;

  constructor(private readonly filterNames: readonly (keyof Filters & string)[]) {
    super();
    const query = new URLSearchParams(location.search);
    this.filters = Object.fromEntries(filterNames.map((name) => [name, query.get(name) ?? ""])) as Filters;
    this.page = Math.max(1, Number(query.get("page")) || 1);
  }

  protected override load(): Promise<void> {
    return this.attempt(async () => {
      const answer = await this.api.get<{ data: Row[]; pagination: Pagination }>(this.endpoint, { ...this.filters, page: this.page, limit: PAGE_SIZE });
      this.rows = answer.data;
      this.pagination = answer.pagination;
      history.replaceState(null, "", withQuery(this.route, { ...this.filters, page: this.page > 1 ? this.page : undefined }));
      if (this.announcesCount) {
        this.announce(this.t(this.countKey, { total: answer.pagination.total, page: this.page, pages: Math.max(1, answer.pagination.totalPages) }));
      }
    });
  }

  /** The filter form's submit handler: its fields, trimmed, from page 1. */
  protected apply(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = Object.fromEntries(this.filterNames.map((name) => [name, String(data.get(name) ?? "").trim()])) as Filters;
    this.page = 1;
    void this.load();
  }

  /** Filters changed by the page itself (e.g. "only this broker"), from page 1. */
  protected refilter(filters: Filters): void {
    this.filters = filters;
    this.page = 1;
    void this.load();
  }

  protected renderPager() {
    return pager(this.pagination, this.t, this.countKey, (page) => {
      this.page = page;
      void this.load();
    });
  }
}
