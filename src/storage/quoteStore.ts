import type { Statement } from "bun:sqlite";
import { and, asc, eq, sql } from "drizzle-orm";
import { quoteOffers, quotes } from "../../db/schema.ts";
import type { QuoteLine } from "../domain/quotes/details.ts";
import type { ProvinceCode } from "../domain/provinces.ts";
import type { RatedOffer } from "../domain/rating/ratingEngine.ts";
import type { DirectoryDb } from "./database.ts";
import { GroupCommit } from "./groupCommit.ts";

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

/** Quote requests and their offers, always read within one workspace. */
export class QuoteStore {
  private readonly byId;
  private readonly offersOf;
  private readonly insertQuote;
  private readonly insertOffers;
  private readonly offerStatements = new Map<number, Statement<never, (string | number)[]>>();
  private readonly writes: GroupCommit;

  constructor(private readonly db: DirectoryDb) {
    this.byId = db
      .select()
      .from(quotes)
      .where(and(eq(quotes.id, sql.placeholder("id")), eq(quotes.workspaceId, sql.placeholder("workspaceId"))))
      .prepare();
    this.offersOf = db
      .select()
      .from(quoteOffers)
      .where(eq(quoteOffers.quoteId, sql.placeholder("quoteId")))
      .orderBy(asc(quoteOffers.position))
      .prepare();
    // Plain prepared statements: drizzle's placeholder filling cost more than the inserts.
    const client = db.$client;
    this.insertQuote = client.prepare<never, [string, string, string, string, string, string, string, string, number, number]>(
      `INSERT INTO quotes (id, workspace_id, insurance_type, line, province, postal_code, details, source, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // All of a quote's offers in one statement; one statement per offer count (3 to 8), made on first use.
    this.insertOffers = (count: number) => {
      let statement = this.offerStatements.get(count);
      if (!statement) {
        const rows = Array.from({ length: count }, () => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
        statement = client.prepare<never, (string | number)[]>(
          `INSERT INTO quote_offers (quote_id, position, carrier_slug, carrier_name, annual_cents, monthly_cents, coverage, deductible) VALUES ${rows}`,
        );
        this.offerStatements.set(count, statement);
      }
      return statement;
    };
    this.writes = new GroupCommit(client);
  }

  /**
   * Stores the quote and its offers atomically. Resolves once they are committed (group
   * commit: see GroupCommit), and rejects, with the database's error, if they were not.
   */
  insert(quote: StoredQuote): Promise<void> {
    return this.writes.write(() => {
      this.insertQuote.run(
        quote.id, quote.workspaceId, quote.insuranceType, quote.line, quote.province, quote.postalCode,
        // As drizzle's JSON column mode writes it.
        JSON.stringify(quote.details), quote.source, quote.createdAt, quote.expiresAt,
      );
      if (quote.offers.length === 0) return;
      const values: (string | number)[] = [];
      quote.offers.forEach((o, position) => {
        values.push(quote.id, position, o.carrierSlug, o.carrierName, o.annualCents, o.monthlyCents, o.coverage, o.deductible);
      });
      this.insertOffers(quote.offers.length).run(...values);
    });
  }

  /** The workspace's quote with that id; undefined for an unknown id or another workspace's. */
  find(id: string, workspaceId: string): StoredQuote | undefined {
    const row = this.byId.get({ id, workspaceId });
    return row && storedQuote(row, this.offersOf.all({ quoteId: id }));
  }
}

/** A quote as stored in either dialect (the same row types), its offers cheapest first. */
export function storedQuote(row: typeof quotes.$inferSelect, offers: readonly (typeof quoteOffers.$inferSelect)[]): StoredQuote {
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
    offers: offers.map((o) => ({
      carrierSlug: o.carrierSlug,
      carrierName: o.carrierName,
      annualCents: o.annualCents,
      monthlyCents: o.monthlyCents,
      coverage: o.coverage,
      deductible: o.deductible,
    })),
  };
}
