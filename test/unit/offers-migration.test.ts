/**
 * Migration 0011 (db/migrations/0011_offers_in_quotes.sql) moves each quote's offers from the
 * quote_offers table into the quote's own row: nothing stored is lost, and the order stays
 * cheapest first (by the old position column, whatever order the rows were written in).
 */
import { expect, test } from "bun:test";
import { MIGRATIONS } from "../../db/migrations.ts";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { QuoteStore } from "../../src/storage/stores/quoteStore.ts";
import { applyMigrationsBefore } from "../support/oldDatabase.ts";

const OFFERS_IN_QUOTES = "0011_offers_in_quotes";

test("quotes stored before 0011 keep every offer, cheapest first; a quote without offers gets an empty list", async () => {
  const db = openDatabase(":memory:");
  const client = db.$client;
  // The schema as the previous version left it.
  applyMigrationsBefore(client, OFFERS_IN_QUOTES);
  client.run("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Workspace', 0)");
  const insertQuote = (id: string) =>
    client.run(
      "INSERT INTO quotes (id, workspace_id, insurance_type, line, province, postal_code, details, source, created_at, expires_at) " +
        "VALUES (?, 'ws', 'Auto', 'auto', 'ON', 'M5V 3L9', '{\"driverAge\":35}', 'embed', 1, 2)",
      [id],
    );
  insertQuote("qt_a");
  insertQuote("qt_empty");
  // Written out of order: position decides.
  for (const [position, slug, cents] of [[2, "gamma", 3000], [0, "alpha", 1000], [1, "béta", 2000]] as const) {
    client.run(
      "INSERT INTO quote_offers (quote_id, position, carrier_slug, carrier_name, annual_cents, monthly_cents, coverage, deductible) VALUES ('qt_a', ?, ?, ?, ?, ?, 'Standard', 500)",
      [position, slug, `Carrier ${slug}`, cents * 12, cents],
    );
  }

  expect(migrate(db).applied).toEqual([OFFERS_IN_QUOTES, ...MIGRATIONS.slice(MIGRATIONS.findIndex((m) => m.tag === OFFERS_IN_QUOTES) + 1).map((m) => m.tag)]);
  const store = new QuoteStore(SqliteExecutor.of(db));
  expect((await store.find("qt_a", "ws"))?.offers).toEqual([
    { carrierSlug: "alpha", carrierName: "Carrier alpha", annualCents: 12000, monthlyCents: 1000, coverage: "Standard", deductible: 500 },
    { carrierSlug: "béta", carrierName: "Carrier béta", annualCents: 24000, monthlyCents: 2000, coverage: "Standard", deductible: 500 },
    { carrierSlug: "gamma", carrierName: "Carrier gamma", annualCents: 36000, monthlyCents: 3000, coverage: "Standard", deductible: 500 },
  ]);
  expect((await store.find("qt_a", "ws"))?.details).toEqual({ driverAge: 35 });
  expect((await store.find("qt_empty", "ws"))?.offers).toEqual([]);
  expect(client.query("SELECT name FROM sqlite_master WHERE name = 'quote_offers'").all()).toEqual([]);
  expect(client.query("PRAGMA foreign_key_check").all()).toEqual([]);
});
