import { and, eq } from "drizzle-orm";
import { quotes } from "../../../db/schema.pg.ts";
import type { QuoteStorePort } from "../ports.ts";
import { offerColumns, storedQuote, type StoredQuote } from "../stores/quoteStore.ts";
import { storable, type PgDb } from "./pgDatabase.ts";

/** QuoteStore over PostgreSQL (see src/storage/stores/quoteStore.ts for the behaviour, kept identical). */
export class PgQuoteStore implements QuoteStorePort {
  constructor(private readonly pg: PgDb) {}

  /**
   * Stores the quote and its offers (one row). Resolves once it is committed
   * (synchronous_commit: the write is in PostgreSQL's log), rejects if it was not.
   */
  async insert(quote: StoredQuote): Promise<void> {
    await this.pg.insert(quotes).values({ ...quote, offers: quote.offers.map(offerColumns) });
  }

  /** The workspace's quote with that id; undefined for an unknown id or another workspace's. */
  async find(id: string, workspaceId: string): Promise<StoredQuote | undefined> {
    if (!storable(id)) return undefined;
    const [row] = await this.pg.select().from(quotes).where(and(eq(quotes.id, id), eq(quotes.workspaceId, workspaceId)));
    return row && storedQuote(row);
  }
}
