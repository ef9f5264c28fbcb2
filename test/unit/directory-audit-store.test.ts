/**
 * The audit trail's store (issue 27 section 3) on the dialect under test (SQLite, or PostgreSQL
 * with TEST_DATABASE=postgres): what an import appends is read back per broker, newest first, in
 * pages; and no one can rewrite it — the database refuses an UPDATE or DELETE of an entry.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokerRecordSchema } from "../../src/schemas/directoryRecords.ts";
import type { Executor } from "../../src/storage/executor.ts";
import { PgExecutor } from "../../src/storage/pg/pgExecutor.ts";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { BrokerImportStore } from "../../src/storage/stores/brokerImportStore.ts";
import { CLI_ACTOR, DirectoryAuditStore } from "../../src/storage/stores/directoryAuditStore.ts";
import { createPgTestDatabase } from "../support/pgTestDatabase.ts";
import { onPostgres } from "../support/testDatabase.ts";

let x: Executor;
let close: () => Promise<void>;
beforeAll(async () => {
  if (onPostgres) {
    const db = await createPgTestDatabase();
    x = new PgExecutor(db.pg);
    close = () => db.drop();
  } else {
    const db = openDatabase(":memory:");
    migrate(db);
    x = SqliteExecutor.of(db);
    close = async () => closeDatabase(db);
  }
});
afterAll(() => close());

const broker = (description: string) =>
  brokerRecordSchema.parse({ externalId: "CRM-9", name: "Audited Brokers", description, locations: [{ address: "1 King Street West", city: "Toronto", province: "ON", postalCode: "M5H 3T4" }] });

test("historyOf reads a broker's changes newest first, in pages, with who, why and the fields before and after", async () => {
  const imports = new BrokerImportStore(x);
  const how = (reason: string, now: number) => ({ actor: CLI_ACTOR, reason, now, write: true });
  const [created] = await imports.batch([{ line: 2, record: broker("One.") }], how("import one.csv", 1_000));
  await imports.batch([{ line: 2, record: broker("Two.") }], how("import two.csv", 2_000));
  await imports.batch([{ line: 2, record: broker("Two.") }], how("import two.csv again", 3_000)); // unchanged: not on record
  const id = (created as { id: number }).id;

  const audit = new DirectoryAuditStore(x);
  const all = await audit.historyOf(id, 1, 10);
  expect(all.total).toBe(2);
  expect(all.items.map(({ action, actor, at, reason, before, after, reviewId }) => ({ action, actor, at, reason, before, after, reviewId }))).toEqual([
    { action: "updated", actor: "cli", at: 2_000, reason: "import two.csv", before: { description: "One." }, after: { description: "Two." }, reviewId: null },
    expect.objectContaining({ action: "created", at: 1_000, reason: "import one.csv", before: null }),
  ]);
  expect((await audit.historyOf(id, 2, 1)).items.map((entry) => entry.action)).toEqual(["created"]);
  expect(await audit.historyOf(id, 3, 1)).toEqual({ items: [], total: 2 });
  expect(await audit.historyOf(id + 1, 1, 10)).toEqual({ items: [], total: 0 });
});

test("the trail is append-only: the database refuses to change or remove an entry", async () => {
  const { directoryAudit } = x.t;
  // The database's own refusal (drizzle wraps PostgreSQL's error: its cause says it).
  const refusal = (attempt: Promise<unknown>) =>
    attempt.then(
      () => "allowed",
      (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
    );
  expect(await refusal(x.apply((db) => db.update(directoryAudit).set({ reason: "rewritten" }).where(eq(directoryAudit.action, "created"))))).toContain("append-only");
  expect(await refusal(x.apply((db) => db.delete(directoryAudit)))).toContain("append-only");
  expect(await new DirectoryAuditStore(x).historyOf(1, 1, 10)).toMatchObject({ total: 2 });
});
