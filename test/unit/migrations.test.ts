import { expect, test } from "bun:test";
import { JOURNAL_TAGS, MIGRATIONS } from "../../db/migrations.ts";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate, SchemaTooNewError } from "../../src/storage/sqlite/migrate.ts";

test("every drizzle-kit migration is embedded, in order", () => {
  expect(MIGRATIONS.map((m) => m.tag)).toEqual([...JOURNAL_TAGS]);
});

test("migrating twice applies nothing the second time", () => {
  const db = openDatabase(":memory:");
  expect(migrate(db).applied).toEqual([...JOURNAL_TAGS]);
  expect(migrate(db).applied).toEqual([]);
});

test("a database migrated by a newer version is refused", () => {
  const db = openDatabase(":memory:");
  migrate(db);
  db.$client.run("INSERT INTO schema_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)");
  expect(() => migrate(db)).toThrow(SchemaTooNewError);
});
