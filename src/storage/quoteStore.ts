import { and, asc, eq, sql } from "drizzle-orm";
import { quoteOffers, quotes } from "../../db/schema.ts";
import type { QuoteLine } from "../domain/quotes/details.ts";
import type { ProvinceCode } from "../domain/provinces.ts";
import type { RatedOffer } from "../domain/rating/ratingEngine.ts";
import type { DirectoryDb } from "./database.ts";

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
  private readonly insertOffer;

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
    this.insertQuote = db
      .insert(quotes)
      .values({
        id: sql.placeholder("id"),
        workspaceId: sql.placeholder("workspaceId"),
        insuranceType: sql.placeholder("insuranceType"),
        line: sql.placeholder("line"),
        province: sql.placeholder("province"),
        postalCode: sql.placeholder("postalCode"),
        details: sql.placeholder("details"),
        source: sql.placeholder("source"),
        createdAt: sql.placeholder("createdAt"),
        expiresAt: sql.placeholder("expiresAt"),
      })
      .prepare();
    this.insertOffer = db
      .insert(quoteOffers)
      .values({
        quoteId: sql.placeholder("quoteId"),
        position: sql.placeholder("position"),
        carrierSlug: sql.placeholder("carrierSlug"),
        carrierName: sql.placeholder("carrierName"),
        annualCents: sql.placeholder("annualCents"),
        monthlyCents: sql.placeholder("monthlyCents"),
        coverage: sql.placeholder("coverage"),
        deductible: sql.placeholder("deductible"),
      })
      .prepare();
  }

  /** Stores the quote and its offers in one transaction. */
  insert(quote: StoredQuote): void {
    this.db.$client.transaction(() => {
      const { offers, ...row } = quote;
      // drizzle encodes the details through the column's JSON mode, placeholders included.
      this.insertQuote.run(row);
      offers.forEach((offer, position) => this.insertOffer.run({ ...offer, quoteId: quote.id, position }));
    })();
  }

  /** The workspace's quote with that id; undefined for an unknown id or another workspace's. */
  find(id: string, workspaceId: string): StoredQuote | undefined {
    const row = this.byId.get({ id, workspaceId });
    if (!row) return undefined;
    const offers = this.offersOf.all({ quoteId: id }).map((o) => ({
      carrierSlug: o.carrierSlug,
      carrierName: o.carrierName,
      annualCents: o.annualCents,
      monthlyCents: o.monthlyCents,
      coverage: o.coverage,
      deductible: o.deductible,
    }));
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
      offers,
    };
  }
}
