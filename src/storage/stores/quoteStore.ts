import { and, eq, sql } from "drizzle-orm";
import { quotes } from "../../../db/schema.ts";
import type { QuoteLine } from "../../domain/quotes/details.ts";
import type { ProvinceCode } from "../../domain/provinces.ts";
import type { RatedOffer } from "../../domain/rating/ratingEngine.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";

export interface StoredQuote {
  id: string;
  workspaceId: string;
  insuranceType: string;
  line: QuoteLine;
  province: ProvinceCode;
  postalCode: string;
  details: Record<string, unknown>;
  source: string;
  createdAt: number;
  expiresAt: number;
  /** Cheapest first. */
  offers: RatedOffer[];
}

/** Quote requests and their offers (one row each: see db/schema.ts), always read within one workspace. */
export class QuoteStore {
  private readonly byId;
  private readonly insertQuote;
  private readonly writes: GroupCommit;

  constructor(private readonly db: DirectoryDb) {
    this.byId = db
      .select()
      .from(quotes)
      .where(and(eq(quotes.id, sql.placeholder("id")), eq(quotes.workspaceId, sql.placeholder("workspaceId"))))
      .prepare();
    // A plain prepared statement: drizzle's placeholder filling cost more than the insert.
    this.insertQuote = db.$client.prepare<never, [string, string, string, string, string, string, string, string, number, number, string]>(
      `INSERT INTO quotes (id, workspace_id, insurance_type, line, province, postal_code, details, source, created_at, expires_at, offers)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.writes = GroupCommit.of(db.$client);
  }

  /**
   * Stores the quote and its offers. Resolves once committed (group commit: see GroupCommit),
   * and rejects, with the database's error, if it was not.
   */
  insert(quote: StoredQuote): Promise<void> {
    return this.writes.write(() => {
      this.insertQuote.run(
        quote.id, quote.workspaceId, quote.insuranceType, quote.line, quote.province, quote.postalCode,
        // As drizzle's JSON column mode writes them.
        JSON.stringify(quote.details), quote.source, quote.createdAt, quote.expiresAt, JSON.stringify(quote.offers.map(offerColumns)),
      );
    });
  }

  /** The workspace's quote with that id; undefined for an unknown id or another workspace's. */
  find(id: string, workspaceId: string): StoredQuote | undefined {
    const row = this.byId.get({ id, workspaceId });
    return row && storedQuote(row);
  }
}

/** A quote as stored in either dialect (the same row type), its offers cheapest first. */
export function storedQuote(row: typeof quotes.$inferSelect): StoredQuote {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    insuranceType: row.insuranceType,
    line: row.line as QuoteLine,
    province: row.province as ProvinceCode,
    postalCode: row.postalCode,
    details: row.details,
    source: row.source,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    offers: row.offers.map(offerColumns),
  };
}

/**
 * An offer's stored fields, named once: what is written is exactly what is read back. Money and
 * the deductible must be whole numbers (JSON would silently store NaN as null, where the old
 * integer columns refused it): anything else is a bug upstream, refused before it is stored.
 */
export function offerColumns(o: RatedOffer): RatedOffer {
  if (![o.annualCents, o.monthlyCents, o.deductible].every(Number.isSafeInteger)) {
    throw new RangeError(`offer of ${o.carrierSlug}: cents and deductible must be whole numbers`);
  }
  return {
    carrierSlug: o.carrierSlug,
    carrierName: o.carrierName,
    annualCents: o.annualCents,
    monthlyCents: o.monthlyCents,
    coverage: o.coverage,
    deductible: o.deductible,
  };
}
