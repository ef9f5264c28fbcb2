import { html, nothing } from "lit";
import type { Pagination } from "../../src/schemas/pagination.ts";
import type { ConsoleKey, T } from "./i18n.ts";

/** Previous / next buttons under a paged list, labelled with its count (`countKey` takes total, page, pages). */
export function pager(p: Pagination | undefined, t: T, countKey: ConsoleKey, turn: (page: number) => void) {
  if (!p || p.totalPages <= 1) return nothing;
  const count = t(countKey, { total: p.total, page: p.page, pages: p.totalPages });
  return html`<nav class="actions" aria-label=${count}>
    <button class="secondary" ?disabled=${p.page <= 1} @click=${() => turn(p.page - 1)}>${t("leads.prev")}</button>
    <span class="muted">${count}</span>
    <button class="secondary" ?disabled=${p.page >= p.totalPages} @click=${() => turn(p.page + 1)}>${t("leads.next")}</button>
  </nav>`;
}
