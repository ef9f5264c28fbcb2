import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { leadEvents, leads } from "../../db/schema.ts";
import type { DirectoryDb } from "./database.ts";

export type StoredLead = typeof leads.$inferSelect;
export type StoredLeadEvent = typeof leadEvents.$inferSelect;

/** Narrows a workspace's leads (the inbox filters and the CSV export); all optional. */
export interface LeadFilter {
  status?: string;
  insuranceType?: string;
  source?: string;
  /** Case-insensitive substring of the name or the e-mail. */
  search?: string;
}

/** The workspace CRM. Every read names the workspace: a lead never leaves its own. */
export class LeadStore {
  private readonly insertLead;
  private readonly page;
  private readonly total;

  constructor(private readonly db: DirectoryDb) {
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

  insert(lead: StoredLead): void {
    this.insertLead.run(lead);
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
    const where = this.filtered(workspaceId, filter);
    const total = this.db.select({ n: count() }).from(leads).where(where).get()?.n ?? 0;
    const offset = (page - 1) * limit;
    const items = offset >= total ? [] : this.newestFirst(where).limit(limit).offset(offset).all();
    return { items, total };
  }

  /** Up to `max` leads of the filter, newest first, for an export. */
  all(workspaceId: string, filter: LeadFilter, max: number): StoredLead[] {
    return this.newestFirst(this.filtered(workspaceId, filter)).limit(max).all();
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
  appendEvent(event: Omit<StoredLeadEvent, "id">): void {
    this.db.$client.transaction(() => {
      this.db.insert(leadEvents).values(event).run();
      this.db.update(leads).set({ status: event.status }).where(eq(leads.id, event.leadId)).run();
    })();
  }

  private filtered(workspaceId: string, filter: LeadFilter): SQL | undefined {
    const conditions: SQL[] = [eq(leads.workspaceId, workspaceId)];
    if (filter.status !== undefined) conditions.push(eq(leads.status, filter.status));
    if (filter.insuranceType !== undefined) conditions.push(eq(leads.insuranceType, filter.insuranceType));
    if (filter.source !== undefined) conditions.push(eq(leads.source, filter.source));
    if (filter.search !== undefined) {
      // instr, not LIKE: the text is matched literally, with no wildcard to escape.
      const needle = filter.search.toLowerCase();
      conditions.push(sql`(instr(lower(${leads.name}), ${needle}) > 0 or instr(lower(${leads.email}), ${needle}) > 0)`);
    }
    return and(...conditions);
  }

  private newestFirst(where: SQL | undefined) {
    return this.db.select().from(leads).where(where).orderBy(desc(leads.createdAt), desc(sql`${leads}.rowid`)).$dynamic();
  }
}
