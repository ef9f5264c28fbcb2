import { and, count, desc, eq, sql } from "drizzle-orm";
import { leads } from "../../db/schema.ts";
import type { DirectoryDb } from "./database.ts";

export type StoredLead = typeof leads.$inferSelect;

/** The workspace CRM. Every read names the workspace: a lead never leaves its own. */
export class LeadStore {
  private readonly insertLead;
  private readonly page;
  private readonly total;

  constructor(db: DirectoryDb) {
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
}
