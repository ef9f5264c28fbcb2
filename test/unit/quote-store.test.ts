/**
 * The quote store over SQLite (src/storage/stores/quoteStore.ts; over PostgreSQL it is tested in
 * test/pg/pg-workspace-stores.test.ts), both ways: SQLite's prepared statements, and the
 * executor's queries PostgreSQL runs. A quote and its offers are one row, read back as written,
 * and an offer that is not whole cents is refused with nothing stored.
 */
import { describe, expect, test } from "bun:test";
import { openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { QuoteStore, type StoredQuote } from "../../src/storage/stores/quoteStore.ts";
import { plainExecutor } from "../support/plainExecutor.ts";

const paths = {
  "SQLite's prepared statements": (db: DirectoryDb) => SqliteExecutor.of(db),
  "the executor's queries (PostgreSQL's path)": (db: DirectoryDb) => plainExecutor(SqliteExecutor.of(db)),
};

const offer = (slug: string, monthlyCents: number) => ({
  carrierSlug: slug, carrierName: `Carrier ${slug}`, annualCents: monthlyCents * 12, monthlyCents, coverage: "Standard", deductible: 500,
});
const quote = (id: string, offers = [offer("alpha", 1000), offer("béta", 2000)]): StoredQuote => ({
  id, workspaceId: "ws", insuranceType: "Auto", line: "auto", province: "ON", postalCode: "M5V 3L9",
  details: { driverAge: 35, cleanRecord: true }, source: "embed", createdAt: 1, expiresAt: 2, offers,
});

describe.each(Object.entries(paths))("%s", (_, executorOf) => {
  function store() {
    const db = openDatabase(":memory:");
    migrate(db);
    db.$client.run("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Workspace', 0)");
    return { db, quotes: new QuoteStore(executorOf(db)) };
  }

  test("a stored quote reads back as written, offers in order, and only within its workspace", async () => {
    const { quotes } = store();
    await quotes.insert(quote("qt_1"));
    expect(await quotes.find("qt_1", "ws")).toEqual(quote("qt_1"));
    expect(await quotes.find("qt_1", "another")).toBeUndefined();
  });

  test("a quote whose offers are not whole cents is refused, and nothing is stored", async () => {
    const { db, quotes } = store();
    const broken = quote("qt_broken", [offer("alpha", 1000), { ...offer("béta", 2000), deductible: Number.NaN }]);
    await expect(quotes.insert(broken)).rejects.toThrow(RangeError);
    await expect(quotes.insert(quote("qt_half", [{ ...offer("alpha", 1000), annualCents: 12000.5 }]))).rejects.toThrow(RangeError);
    expect(db.$client.query("SELECT id FROM quotes").all()).toEqual([]);
  });
});
