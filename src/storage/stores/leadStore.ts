import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type Column, type SQL } from "drizzle-orm";
import type { leadEvents, leads } from "../../../db/schema.ts";
import { foldText } from "../../domain/text.ts";
import { placeholders, row, rows, run, type Awaitable, type Executor, type Tables } from "../executor.ts";
import { storable } from "../storableText.ts";
import { CreatedWriter, type CreatedOutcome, type CreatedWith } from "./createdWith.ts";
import type { OutboxEvent } from "./webhookOutbox.ts";

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

/** Where an export page ends: the last lead read, by the order leads are listed in (created_at, then insertion order). */
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
 * the text search applied here (as search does), so a page costs one bounded read whatever it
 * finds.
 */
function exportPageOf(rows: readonly { lead: StoredLead; order: number }[], limit: number, search: string | undefined): LeadExportPage {
  const needle = search === undefined ? undefined : foldText(search);
  const page = rows.slice(0, limit);
  const items = page.map((row) => row.lead).filter((lead) => needle === undefined || matchesSearch(lead, needle));
  const last = page.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.lead.createdAt, order: last.order } : undefined };
}

/** Whether the lead's name or e-mail holds the folded search text (case and accents ignored). */
function matchesSearch(lead: Pick<StoredLead, "name" | "email">, needle: string): boolean {
  return foldText(lead.name).includes(needle) || foldText(lead.email).includes(needle);
}

/** The workspace and the filters other than the text search, as one condition. */
function leadConditions(leads: Tables["leads"], workspaceId: string, filter: LeadFilter): SQL | undefined {
  const conditions: SQL[] = [eq(leads.workspaceId, workspaceId)];
  if (filter.status !== undefined) conditions.push(eq(leads.status, filter.status));
  if (filter.insuranceType !== undefined) conditions.push(eq(leads.insuranceType, filter.insuranceType));
  if (filter.source !== undefined) conditions.push(eq(leads.source, filter.source));
  return and(...conditions);
}

/** A page of the inbox and how many leads the filter keeps in all. */
export interface LeadPage {
  items: StoredLead[];
  total: number;
}

/**
 * The order leads were inserted in, which breaks the ties of "newest first" (leads of one
 * millisecond): SQLite's rowid; PostgreSQL has no rowid, so its leads table carries a `seq`
 * identity column instead (db/schema.pg.ts), indexed after created_at as SQLite's index carries
 * the rowid. The one place the dialects differ in this store. A number in both (PostgreSQL's
 * int8 arrives as text).
 */
function insertionOrder(x: Executor): SQL<number> {
  const { leads } = x.t;
  return (x.dialect === "sqlite" ? sql`${leads}.rowid` : sql`${leads}.seq`).mapWith(Number);
}

/** A lead's columns as SQLite has them: PostgreSQL's `seq` (see insertionOrder) is left out of every row read. */
function leadColumns(leads: Tables["leads"]) {
  // The cast says what the tables are at run time: PostgreSQL's leads have one column more than SQLite's type.
  const { seq: _seq, ...columns } = getTableColumns(leads) as Tables["leads"]["_"]["columns"] & { seq?: Column };
  return columns;
}

/**
 * The workspace CRM, over either dialect (src/storage/executor.ts). Every read names the
 * workspace: a lead never leaves its own. Listing is newest first, insertion order breaking
 * ties (insertionOrder), and the (workspace_id, created_at) index serves both the filter and
 * the order.
 */
export class LeadStore {
  private readonly columns;
  private readonly order: SQL<number>;
  private readonly newestFirst: SQL[];
  private readonly created: CreatedWriter;
  /** Every lead POST runs it: prepared (Executor.prepare). */
  private readonly insertLead;

  constructor(private readonly x: Executor) {
    this.created = new CreatedWriter(x);
    this.columns = leadColumns(x.t.leads);
    this.order = insertionOrder(x);
    this.newestFirst = [desc(x.t.leads.createdAt), desc(this.order)];
    const values = placeholders(Object.keys(this.columns) as (keyof StoredLead)[]);
    this.insertLead = x.prepare((db, { leads }) => db.insert(leads).values(values));
  }

  /**
   * Resolves once committed (SQLite: group commit, see GroupCommit). What it carries (createdWith.ts)
   * is in the same transaction: the idempotency record (the lead is written only if it claims the
   * key; else nothing is, and the record holding the key is answered) and the lead.created event
   * for the webhook outbox.
   */
  async insert(lead: StoredLead, carried: CreatedWith = {}): Promise<CreatedOutcome> {
    if (!carried.record && !carried.event) {
      await this.x.apply((db) => this.insertLead.bind(db, lead));
      return { deliveries: 0 };
    }
    return this.x.write((db, t) => this.created.write(db, t, this.insertLead.bind(db, lead), carried));
  }

  list(workspaceId: string, page: number, limit: number): Awaitable<LeadPage> {
    return this.page(eq(this.x.t.leads.workspaceId, workspaceId), page, limit);
  }

  /** A filtered page of the inbox, newest first (the same order as list). */
  search(workspaceId: string, filter: LeadFilter, page: number, limit: number): Awaitable<LeadPage> {
    const where = leadConditions(this.x.t.leads, workspaceId, filter);
    if (filter.search === undefined) return this.page(where, page, limit);
    const { columns, newestFirst } = this;
    const needle = foldText(filter.search);
    const offset = (page - 1) * limit;
    return this.x.read(function* (db, { leads }) {
      // SQLite's lower() knows only ASCII, so the text is compared folded (case and accents
      // ignored, "elise" finds "Élise") here, in both dialects alike, over at most
      // SEARCH_SCAN_LIMIT of the newest leads the other filters keep.
      const candidates = yield* rows(db.select({ id: leads.id, name: leads.name, email: leads.email }).from(leads).where(where).orderBy(...newestFirst).limit(SEARCH_SCAN_LIMIT));
      const ids = candidates.filter((c) => matchesSearch(c, needle)).map((c) => c.id);
      const wanted = ids.slice(offset, offset + limit);
      if (wanted.length === 0) return { items: [], total: ids.length };
      // Full rows for the page's ids, in the order found.
      const found = new Map((yield* rows(db.select(columns).from(leads).where(inArray(leads.id, wanted)))).map((row) => [row.id, row]));
      return { items: wanted.map((id) => found.get(id)).filter((row): row is StoredLead => row !== undefined), total: ids.length };
    });
  }

  /**
   * The next page of an export, newest first: the `limit` leads after `after` that the filter
   * keeps (the text search applied to those). Keyset pagination: each page is one index range
   * read, however deep into the workspace it is.
   */
  exportPage(workspaceId: string, filter: LeadFilter, after: LeadCursor | undefined, limit: number): Awaitable<LeadExportPage> {
    const { columns, order, newestFirst } = this;
    const { leads } = this.x.t;
    const where = and(leadConditions(leads, workspaceId, filter), after ? sql`(${leads.createdAt}, ${order}) < (${after.createdAt}, ${after.order})` : undefined);
    return this.x.read(function* (db) {
      const found = yield* rows(db.select({ lead: columns, order }).from(leads).where(where).orderBy(...newestFirst).limit(limit + 1));
      return exportPageOf(found, limit, filter.search);
    });
  }

  find(id: string, workspaceId: string): Awaitable<StoredLead | undefined> {
    if (!storable(id)) return undefined;
    const { leads } = this.x.t;
    return this.x.row((db) => db.select(this.columns).from(leads).where(and(eq(leads.id, id), eq(leads.workspaceId, workspaceId))));
  }

  /** The lead's history, oldest first. */
  events(leadId: string): Awaitable<StoredLeadEvent[]> {
    return this.x.rows((db, { leadEvents }) => db.select().from(leadEvents).where(eq(leadEvents.leadId, leadId)).orderBy(asc(leadEvents.id)));
  }

  /**
   * Appends a history entry and makes its status the lead's current one, in one transaction.
   * Entries are only ever added: two changes made at once are both kept, the later one current.
   * A status change's webhook event (`changed`) is written in the same transaction.
   */
  async appendEvent(event: Omit<StoredLeadEvent, "id">, changed?: OutboxEvent): Promise<number> {
    const { outbox } = this.created;
    return this.x.write(function* (db, t) {
      const { leads, leadEvents } = t;
      // The status first: with PostgreSQL its UPDATE takes the lead's row lock, so two changes at
      // once number their history entries in the order they write the status, and the later
      // entry is always the current status (SQLite's single writer guarantees it anyway).
      // Numbered first, the one to write the status last could hold the earlier entry.
      yield* run(db.update(leads).set({ status: event.status }).where(eq(leads.id, event.leadId)));
      yield* run(db.insert(leadEvents).values(event));
      // lead.status_changed, in the same transaction as the change it tells of.
      return changed ? yield* outbox.write(db, t, changed) : 0;
    });
  }

  private page(where: SQL | undefined, page: number, limit: number): Awaitable<LeadPage> {
    const { columns, newestFirst } = this;
    const offset = (page - 1) * limit;
    return this.x.read(function* (db, { leads }) {
      const total = (yield* row(db.select({ n: count() }).from(leads).where(where)))?.n ?? 0;
      const items = offset >= total ? [] : yield* rows(db.select(columns).from(leads).where(where).orderBy(...newestFirst).limit(limit).offset(offset));
      return { items, total };
    });
  }
}
