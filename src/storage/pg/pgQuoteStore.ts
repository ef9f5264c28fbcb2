import { and, asc, eq } from "drizzle-orm";
import { quoteOffers, quotes } from "../../../db/schema.pg.ts";
import type { QuoteStorePort } from "../ports.ts";
import { storedQuote, type StoredQuote } from "../quoteStore.ts";
import { storable, type PgDb } from "./pgDatabase.ts";

/** QuoteStore over PostgreSQL (see src/storage/quoteStore.ts for the behaviour, kept identical). */
export class PgQuoteStore implements QuoteStorePort {
  constructor(private readonly pg: PgDb) {}

  /**
   * Stores the quote and its offers atomically, in one transaction. Resolves once it is
   * committed (synchronous_commit: the write is in PostgreSQL's log), rejects if it was not.
   */
  async insert(quote: StoredQuote): Promise<void> {
    const { offers, ...row } = quote;
    await this.pg.transaction(async (tx) => {
      await tx.insert(quotes).values(row);
      if (offers.length === 0) return;
      await tx.insert(quoteOffers).values(offers.map((o, position) => ({ quoteId: quote.id, position, ...o })));
    });
  }

  /** The workspace's quote with that id; undefined for an unknown id or another workspace's. */
  async find(id: string, workspaceId: string): Promise<StoredQuote | undefined> {
    if (!storable(id)) return undefined;
    const [row] = await this.pg.select().from(quotes).where(and(eq(quotes.id, id), eq(quotes.workspaceId, workspaceId)));
    if (!row) return undefined;
    return storedQuote(row, await this.pg.select().from(quoteOffers).where(eq(quoteOffers.quoteId, id)).orderBy(asc(quoteOffers.position)));
  }
}
