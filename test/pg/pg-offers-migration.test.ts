/**
 * PostgreSQL migration 0002 (db/migrations-pg/0002_offers_in_quotes.sql) moves each quote's
 * offers from quote_offers into the quote's row, cheapest (position 0) first, losing nothing.
 * The test database comes migrated; the previous version's state is rebuilt from migration
 * 0000's own statements for quote_offers, then the migration runs again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PG_MIGRATIONS } from "../../db/migrationsPg.ts";
import { migratePg } from "../../src/storage/pg/migratePg.ts";
import { PgExecutor } from "../../src/storage/pg/pgExecutor.ts";
import { QuoteStore } from "../../src/storage/stores/quoteStore.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";

const OFFERS_IN_QUOTES = "0002_offers_in_quotes";
let db: PgTestDatabase;
beforeAll(async () => {
  db = await createPgTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

test("quotes stored before 0002 keep every offer, cheapest first; a quote without offers gets an empty list", async () => {
  const sql = db.pg.$client;
  const tables = PG_MIGRATIONS.find((m) => m.tag === "0000_tables")!.sql.split("--> statement-breakpoint").map((s) => s.trim());
  await sql`ALTER TABLE quotes DROP COLUMN offers`;
  for (const statement of tables.filter((s) => s.includes('"quote_offers"'))) await sql.unsafe(statement);
  await sql`DELETE FROM schema_migrations WHERE tag = ${OFFERS_IN_QUOTES}`;
  await sql`INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Workspace', 0)`;
  for (const id of ["qt_a", "qt_empty"]) {
    await sql`INSERT INTO quotes (id, workspace_id, insurance_type, line, province, postal_code, details, source, created_at, expires_at)
              VALUES (${id}, 'ws', 'Auto', 'auto', 'ON', 'M5V 3L9', '{"driverAge": 35}'::jsonb, 'embed', 1, 2)`;
  }
  for (const [position, slug, cents] of [[2, "gamma", 3000], [0, "alpha", 1000], [1, "béta", 2000]] as const) {
    await sql`INSERT INTO quote_offers (quote_id, position, carrier_slug, carrier_name, annual_cents, monthly_cents, coverage, deductible)
              VALUES ('qt_a', ${position}, ${slug}, ${`Carrier ${slug}`}, ${cents * 12}, ${cents}, 'Standard', 500)`;
  }

  expect((await migratePg(db.pg)).applied).toEqual([OFFERS_IN_QUOTES]);
  const store = new QuoteStore(new PgExecutor(db.pg));
  expect((await store.find("qt_a", "ws"))?.offers).toEqual([
    { carrierSlug: "alpha", carrierName: "Carrier alpha", annualCents: 12000, monthlyCents: 1000, coverage: "Standard", deductible: 500 },
    { carrierSlug: "béta", carrierName: "Carrier béta", annualCents: 24000, monthlyCents: 2000, coverage: "Standard", deductible: 500 },
    { carrierSlug: "gamma", carrierName: "Carrier gamma", annualCents: 36000, monthlyCents: 3000, coverage: "Standard", deductible: 500 },
  ]);
  expect((await store.find("qt_a", "ws"))?.details).toEqual({ driverAge: 35 });
  expect((await store.find("qt_empty", "ws"))?.offers).toEqual([]);
  const [table] = await sql<{ gone: boolean }[]>`SELECT to_regclass('quote_offers') IS NULL AS gone`;
  expect(table?.gone).toBe(true);
});
