import { and, eq, sql } from "drizzle-orm";
import { quotes } from "../../../db/schema.ts";
import type { QuoteLine } from "../../domain/quotes/details.ts";
import type { ProvinceCode } from "../../domain/provinces.ts";
import type { RatedOffer } from "../../domain/rating/ratingEngine.ts";
import { row, run, type Awaitable, type Executor } from "../executor.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";
import { SqliteExecutor } from "../sqlite/sqliteExecutor.ts";
import { storable } from "../storableText.ts";
import { CreatedWriter, type CreatedOutcome, type CreatedWith } from "./createdWith.ts";
import { WebhookOutbox, type OutboxEvent } from "./webhookOutbox.ts";

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

/**
 * Quote requests and their offers (one row each: see db/schema.ts), always read within one
 * workspace; over either dialect (src/storage/executor.ts), with SQLite's hot path specialised
 * (SqliteQuoteStatements).
 */
export class QuoteStore {
  /** SQLite's prepared statements, or undefined with PostgreSQL (the executor's queries, below). */
  private readonly sqlite: SqliteQuoteStatements | undefined;
  private readonly created: CreatedWriter;

  constructor(private readonly x: Executor) {
    this.created = new CreatedWriter(x);
    this.sqlite = x instanceof SqliteExecutor ? new SqliteQuoteStatements(x, this.created.outbox) : undefined;
  }

  /**
   * Stores the quote and its offers with what it carries (createdWith.ts) in one transaction: its
   * idempotency record (the quote is written only if it claims the key; else nothing is, and the
   * record holding the key is answered) and its quote.created event for the webhook outbox.
   * Resolves once committed (SQLite: group commit, see GroupCommit), and rejects, with the
   * database's error, if it was not; an offer that is not whole cents is refused before anything
   * is written. Without a key, SQLite takes its prepared path (the bench's quote POST).
   */
  async insert(quote: StoredQuote, carried: CreatedWith = {}): Promise<CreatedOutcome> {
    const offers = quote.offers.map(offerColumns);
    if (this.sqlite && !carried.record) return { deliveries: await this.sqlite.insert(quote, offers, carried.event) };
    if (!carried.record && !carried.event) {
      await this.x.apply((db, { quotes }) => db.insert(quotes).values({ ...quote, offers }));
      return { deliveries: 0 };
    }
    return this.x.write((db, t) => this.created.write(db, t, db.insert(t.quotes).values({ ...quote, offers }), carried));
  }

  /** The workspace's quote with that id; undefined for an unknown id or another workspace's. */
  find(id: string, workspaceId: string): Awaitable<StoredQuote | undefined> {
    if (!storable(id)) return undefined;
    if (this.sqlite) return this.sqlite.find(id, workspaceId);
    return this.x.read(function* (db, { quotes }) {
      const found = yield* row(db.select().from(quotes).where(and(eq(quotes.id, id), eq(quotes.workspaceId, workspaceId))));
      return found && storedQuote(found);
    });
  }
}

/**
 * SQLite's specialisation of the quote store, kept because it is a hot path: every POST of a
 * quote writes one (bench scenario 5), and reading one back serves GET /quotes/:id, the policy
 * comparison and a lead naming its quote. Each statement is prepared once here, where the
 * executor has drizzle render its SQL (most of the cost) and SQLite compile it at every call.
 * Measured with scripts/bench/quoteStoreCost.ts (20,000 of each on a SQLite file in WAL mode,
 * inserts in turns of 200 as under load, shared 2-core host, median of 5 rounds): an insert
 * costs 12.3 µs through the plain prepared INSERT against 64 µs through the executor, a find
 * 7.8 µs through the drizzle prepared select against 93 µs. PostgreSQL runs the executor's
 * queries (QuoteStore's own), which test/unit/quote-store.test.ts also runs on SQLite.
 */
class SqliteQuoteStatements {
  private readonly byId;
  private readonly insertQuote;
  private readonly writes: GroupCommit;

  constructor(
    x: SqliteExecutor,
    private readonly outbox: WebhookOutbox,
  ) {
    const db = x.db;
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
    // The connection's one group commit, which its executor writes through too.
    this.writes = GroupCommit.of(db.$client);
  }

  /** Answers how many webhook deliveries the quote's event queued. */
  insert(quote: StoredQuote, offers: RatedOffer[], event: OutboxEvent | undefined): Promise<number> {
    return this.writes.write(() => {
      this.insertQuote.run(
        quote.id, quote.workspaceId, quote.insuranceType, quote.line, quote.province, quote.postalCode,
        // As drizzle's JSON column mode writes them.
        JSON.stringify(quote.details), quote.source, quote.createdAt, quote.expiresAt, JSON.stringify(offers),
      );
      // The outbox's read is prepared too: a workspace without webhooks adds about a microsecond.
      return event ? this.outbox.writeNow(event) : 0;
    });
  }

  find(id: string, workspaceId: string): StoredQuote | undefined {
    const found = this.byId.get({ id, workspaceId });
    return found && storedQuote(found);
  }
}

/** A quote as stored (the same row type in both dialects), its offers cheapest first. */
function storedQuote(row: typeof quotes.$inferSelect): StoredQuote {
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
function offerColumns(o: RatedOffer): RatedOffer {
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
