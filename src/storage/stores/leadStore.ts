import { and, asc, count, desc, eq, inArray, sql, type Column, type SQL } from "drizzle-orm";
import { leadEvents, leads } from "../../../db/schema.ts";
import { foldText } from "../../domain/text.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";

/** Leads a search looks through at most (the newest), so a search costs a bounded scan. */
export const SEARCH_SCAN_LIMIT = 50_000;

export type StoredLead = typeof leads.$inferSelect;
export type StoredLeadEvent = typeof leadEvents.$inferSelect;

/** Narrows a workspace's leads (the inbox filters and the CSV export); all optional. */
export interface LeadFilter {
  status?: string;
  insuranceType?: string;
  source?: string;
  /** Text found in the name or the e-mail, ignoring case and accents. */
  search?: string;
}

/** Where an export page ends: the last lead read, by the order both stores list in (created_at, then rowid / seq). */
export interface LeadCursor {
  createdAt: number;
  order: number;
}

/** One page of an export: the leads read that match, and where the next page starts (none after the last). */
export interface LeadExportPage {
  items: StoredLead[];
  next: LeadCursor | undefined;
}

/**
 * An export page from up to `limit` + 1 leads read in order with their order keys (the one
 * past the page only says whether another follows, so the last page is never an empty one):
 * the text search applied here (as idsMatching does), so a page costs one bounded read
 * whatever it finds.
 */
export function exportPageOf(rows: readonly { lead: StoredLead; order: number }[], limit: number, search: string | undefined): LeadExportPage {
  const needle = search === undefined ? undefined : foldText(search);
  const page = rows.slice(0, limit);
  const items = page.map((row) => row.lead).filter((lead) => needle === undefined || matchesSearch(lead, needle));
  const last = page.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.lead.createdAt, order: last.order } : undefined };
}

/** Whether the lead's name or e-mail holds the folded search text (case and accents ignored). */
export function matchesSearch(lead: Pick<StoredLead, "name" | "email">, needle: string): boolean {
  return foldText(lead.name).includes(needle) || foldText(lead.email).includes(needle);
}

/** The columns a filter reads, in either dialect's leads table. */
type FilterColumns = Record<"workspaceId" | "status" | "insuranceType" | "source", Column>;

/** The workspace and the filters other than the text search, as one condition (both dialects). */
export function leadConditions(columns: FilterColumns, workspaceId: string, filter: LeadFilter): SQL | undefined {
  const conditions: SQL[] = [eq(columns.workspaceId, workspaceId)];
  if (filter.status !== undefined) conditions.push(eq(columns.status, filter.status));
  if (filter.insuranceType !== undefined) conditions.push(eq(columns.insuranceType, filter.insuranceType));
  if (filter.source !== undefined) conditions.push(eq(columns.source, filter.source));
  return and(...conditions);
}

/** The workspace CRM. Every read names the workspace: a lead never leaves its own. */
export class LeadStore {
  private readonly insertLead;
  private readonly page;
  private readonly total;
  private readonly writes: GroupCommit;

  constructor(private readonly db: DirectoryDb) {
    this.writes = GroupCommit.of(db.$client);
    this.insertLead = db.insert(leads).values({
      id: sql.placeholder("id"),
      workspaceId: sql.placeholder("workspaceId"),
      name: sql.placeholder("name"),
      email: sql.placeholder("email"),
      phone: sql.placeholder("phone"),
      insuranceType: sql.placeholder("insuranceType"),
      notes: sql.placeholder("notes"),
      brokerSlug: sql.placeholder("brokerSlug"),
      quoteId: sql.placeholder("quoteId"),
      source: sql.placeholder("source"),
      status: sql.placeholder("status"),
      createdAt: sql.placeholder("createdAt"),
    }).prepare();
    // Newest first; rowid breaks ties within a millisecond (insertion order), and the
    // (workspace_id, created_at) index serves both the filter and the order.
    this.page = db
      .select()
      .from(leads)
      .where(eq(leads.workspaceId, sql.placeholder("workspaceId")))
      .orderBy(desc(leads.createdAt), desc(sql`${leads}.rowid`))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare();
    this.total = db.select({ n: count() }).from(leads).where(and(eq(leads.workspaceId, sql.placeholder("workspaceId")))).prepare();
  }

  /** Resolves once committed (group commit: see GroupCommit). */
  async insert(lead: StoredLead): Promise<void> {
    await this.writes.write(() => this.insertLead.run(lead));
  }

  list(workspaceId: string, page: number, limit: number): { items: StoredLead[]; total: number } {
    const total = this.total.get({ workspaceId })?.n ?? 0;
    const offset = (page - 1) * limit;
    const items = offset >= total ? [] : this.page.all({ workspaceId, limit, offset });
    return { items, total };
  }

  /** A filtered page of the inbox, newest first (the same order as list). */
  search(workspaceId: string, filter: LeadFilter, page: number, limit: number): { items: StoredLead[]; total: number } {
    if (Object.values(filter).every((v) => v === undefined)) return this.list(workspaceId, page, limit);
    const offset = (page - 1) * limit;
    if (filter.search !== undefined) {
      const ids = this.idsMatching(workspaceId, filter);
      return { items: this.byIds(ids.slice(offset, offset + limit)), total: ids.length };
    }
    const where = this.filtered(workspaceId, filter);
    const total = this.db.select({ n: count() }).from(leads).where(where).get()?.n ?? 0;
    const items = offset >= total ? [] : this.newestFirst(where).limit(limit).offset(offset).all();
    return { items, total };
  }

  /**
   * The next page of an export, newest first: the `limit` leads after `after` that the filter
   * keeps (the text search applied to those). Keyset pagination: each page is one index range
   * read, however deep into the workspace it is.
   */
  exportPage(workspaceId: string, filter: LeadFilter, after: LeadCursor | undefined, limit: number): LeadExportPage {
    const rowid = sql<number>`${leads}.rowid`;
    const where = and(this.filtered(workspaceId, filter), after ? sql`(${leads.createdAt}, ${rowid}) < (${after.createdAt}, ${after.order})` : undefined);
    const rows = this.db.select({ lead: leads, order: rowid }).from(leads).where(where).orderBy(desc(leads.createdAt), desc(rowid)).limit(limit + 1).all();
    return exportPageOf(rows, limit, filter.search);
  }

  /**
   * Ids of the leads whose name or e-mail holds the search text, newest first. SQLite's lower()
   * knows only ASCII, so the text is compared folded (case and accents ignored, "elise" finds
   * "Élise") here, over at most SEARCH_SCAN_LIMIT of the newest leads the other filters keep.
   */
  private idsMatching(workspaceId: string, filter: LeadFilter): string[] {
    const needle = foldText(filter.search ?? "");
    const candidates = this.db
      .select({ id: leads.id, name: leads.name, email: leads.email })
      .from(leads)
      .where(this.filtered(workspaceId, { ...filter, search: undefined }))
      .orderBy(desc(leads.createdAt), desc(sql`${leads}.rowid`))
      .limit(SEARCH_SCAN_LIMIT)
      .all();
    return candidates.filter((c) => matchesSearch(c, needle)).map((c) => c.id);
  }

  /** Full rows for these ids, in the order given. */
  private byIds(ids: readonly string[]): StoredLead[] {
    if (ids.length === 0) return [];
    const rows = new Map(this.db.select().from(leads).where(inArray(leads.id, [...ids])).all().map((row) => [row.id, row]));
    return ids.map((id) => rows.get(id)).filter((row): row is StoredLead => row !== undefined);
  }

  find(id: string, workspaceId: string): StoredLead | undefined {
    return this.db.select().from(leads).where(and(eq(leads.id, id), eq(leads.workspaceId, workspaceId))).get();
  }

  /** The lead's history, oldest first. */
  events(leadId: string): StoredLeadEvent[] {
    return this.db.select().from(leadEvents).where(eq(leadEvents.leadId, leadId)).orderBy(asc(leadEvents.id)).all();
  }

  /**
   * Appends a history entry and makes its status the lead's current one, in one transaction.
   * Entries are only ever added: two changes made at once are both kept, the later one current.
   */
  appendEvent(event: Omit<StoredLeadEvent, "id">): Promise<void> {
    return this.writes.write(() => {
      this.db.insert(leadEvents).values(event).run();
      this.db.update(leads).set({ status: event.status }).where(eq(leads.id, event.leadId)).run();
    });
  }

  private filtered(workspaceId: string, filter: LeadFilter): SQL | undefined {
    return leadConditions(leads, workspaceId, filter);
  }

  private newestFirst(where: SQL | undefined) {
    return this.db.select().from(leads).where(where).orderBy(desc(leads.createdAt), desc(sql`${leads}.rowid`)).$dynamic();
  }
}
