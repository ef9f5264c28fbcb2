import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import { leadEvents, leads } from "../../../db/schema.pg.ts";
import { foldText } from "../../domain/text.ts";
import { exportPageOf, leadConditions, matchesSearch, SEARCH_SCAN_LIMIT, type LeadCursor, type LeadExportPage, type LeadFilter, type StoredLead, type StoredLeadEvent } from "../stores/leadStore.ts";
import type { LeadStorePort } from "../ports.ts";
import { storable, type PgDb } from "./pgDatabase.ts";

/** A lead's columns as SQLite has them: `seq` orders the rows and is nobody else's business. */
const { seq: _seq, ...LEAD_COLUMNS } = getTableColumns(leads);
/** Newest first; seq breaks ties within a millisecond (insertion order), as rowid does in SQLite. */
const NEWEST_FIRST = [desc(leads.createdAt), desc(leads.seq)];

/** LeadStore over PostgreSQL (see src/storage/stores/leadStore.ts for the behaviour, kept identical). */
export class PgLeadStore implements LeadStorePort {
  constructor(private readonly pg: PgDb) {}

  /** Resolves once the lead is committed. */
  async insert(lead: StoredLead): Promise<void> {
    await this.pg.insert(leads).values(lead);
  }

  async list(workspaceId: string, page: number, limit: number): Promise<{ items: StoredLead[]; total: number }> {
    return this.page(eq(leads.workspaceId, workspaceId), page, limit);
  }

  /** A filtered page of the inbox, newest first (the same order as list). */
  async search(workspaceId: string, filter: LeadFilter, page: number, limit: number): Promise<{ items: StoredLead[]; total: number }> {
    if (filter.search !== undefined) {
      const offset = (page - 1) * limit;
      const ids = await this.idsMatching(workspaceId, filter);
      return { items: await this.byIds(ids.slice(offset, offset + limit)), total: ids.length };
    }
    return this.page(this.filtered(workspaceId, filter), page, limit);
  }

  /** The next page of an export, newest first (see LeadStore.exportPage). */
  async exportPage(workspaceId: string, filter: LeadFilter, after: LeadCursor | undefined, limit: number): Promise<LeadExportPage> {
    const where = and(this.filtered(workspaceId, filter), after ? sql`(${leads.createdAt}, ${leads.seq}) < (${after.createdAt}, ${after.order})` : undefined);
    const rows = await this.pg.select({ lead: LEAD_COLUMNS, order: leads.seq }).from(leads).where(where).orderBy(...NEWEST_FIRST).limit(limit + 1);
    return exportPageOf(rows, limit, filter.search);
  }

  async find(id: string, workspaceId: string): Promise<StoredLead | undefined> {
    if (!storable(id)) return undefined;
    const [row] = await this.pg.select(LEAD_COLUMNS).from(leads).where(and(eq(leads.id, id), eq(leads.workspaceId, workspaceId)));
    return row;
  }

  /** The lead's history, oldest first. */
  events(leadId: string): Promise<StoredLeadEvent[]> {
    return this.pg.select().from(leadEvents).where(eq(leadEvents.leadId, leadId)).orderBy(asc(leadEvents.id));
  }

  /** Appends a history entry and makes its status the lead's current one, in one transaction. */
  async appendEvent(event: Omit<StoredLeadEvent, "id">): Promise<void> {
    await this.pg.transaction(async (tx) => {
      // The lead's row lock first: two changes at once take their history ids in the order they
      // write the status, so the later entry is always the current status (as SQLite's single
      // writer guarantees). Without it, the first to number its entry could write the status last.
      await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, event.leadId)).for("update");
      await tx.insert(leadEvents).values(event);
      await tx.update(leads).set({ status: event.status }).where(eq(leads.id, event.leadId));
    });
  }

  private async page(where: SQL | undefined, page: number, limit: number): Promise<{ items: StoredLead[]; total: number }> {
    const [counted] = await this.pg.select({ n: count() }).from(leads).where(where);
    const total = counted?.n ?? 0;
    const offset = (page - 1) * limit;
    const items = offset >= total ? [] : await this.newestFirst(where).limit(limit).offset(offset);
    return { items, total };
  }

  /**
   * Ids of the leads whose name or e-mail holds the search text, newest first, compared folded
   * (case and accents ignored) in this process as the SQLite store does, so both find the same
   * leads, over at most SEARCH_SCAN_LIMIT of the newest leads the other filters keep.
   */
  private async idsMatching(workspaceId: string, filter: LeadFilter): Promise<string[]> {
    const needle = foldText(filter.search ?? "");
    const candidates = await this.pg
      .select({ id: leads.id, name: leads.name, email: leads.email })
      .from(leads)
      .where(this.filtered(workspaceId, { ...filter, search: undefined }))
      .orderBy(...NEWEST_FIRST)
      .limit(SEARCH_SCAN_LIMIT);
    return candidates.filter((c) => matchesSearch(c, needle)).map((c) => c.id);
  }

  /** Full rows for these ids, in the order given. */
  private async byIds(ids: readonly string[]): Promise<StoredLead[]> {
    if (ids.length === 0) return [];
    const rows = new Map((await this.pg.select(LEAD_COLUMNS).from(leads).where(inArray(leads.id, [...ids]))).map((row) => [row.id, row]));
    return ids.map((id) => rows.get(id)).filter((row): row is StoredLead => row !== undefined);
  }

  private filtered(workspaceId: string, filter: LeadFilter): SQL | undefined {
    return leadConditions(leads, workspaceId, filter);
  }

  private newestFirst(where: SQL | undefined) {
    return this.pg.select(LEAD_COLUMNS).from(leads).where(where).orderBy(...NEWEST_FIRST).$dynamic();
  }
}
