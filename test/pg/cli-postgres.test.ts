import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DEMO_DIRECTORY } from "../../src/demo/ensureDemoData.ts";
import { loadDemoDirectoryPg } from "../../src/demo/loadDirectoryPg.ts";
import { runCli } from "../cli/cliHarness.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";


describe("migrate, seed and backup with DATABASE_URL", () => {
  let database: PgTestDatabase;

  beforeAll(async () => {
    database = await createPgTestDatabase();
    // Back to an empty database: the migrate test applies every migration itself.
    await database.pg.$client.unsafe("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
  });
  afterAll(async () => {
    await database?.drop();
  });

  test("migrate applies the PostgreSQL migrations once, then finds nothing to do", async () => {
    const first = await runCli(["migrate"], { DATABASE_URL: database.url });
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain("Applied 0000_tables, 0001_triggers_and_announcements");
    const second = await runCli(["migrate", "--database-url", database.url]);
    expect(second.stdout).toContain("is up to date");
  });

  test("demo data fills an empty PostgreSQL directory, once", async () => {
    expect(await loadDemoDirectoryPg(database.pg, DEMO_DIRECTORY)).toBe(DEMO_DIRECTORY.brokers);
    expect(await loadDemoDirectoryPg(database.pg, DEMO_DIRECTORY)).toBe(0);
  });

  test("seed writes the directory and the carriers into PostgreSQL", async () => {
    const result = await runCli(["seed", "--brokers", "25", "--reviews-per-broker", "2"], { DATABASE_URL: database.url });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Seeded postgres://");
    expect(result.stdout).toContain("25 brokers");
    const [counts] = await database.pg.$client<{ brokers: number; carriers: number }[]>`
      SELECT (SELECT count(*)::int FROM brokers) AS brokers, (SELECT count(*)::int FROM carriers) AS carriers`;
    expect(counts).toEqual({ brokers: 25, carriers: 30 });
  });

  test("backup prints the pg_dump command without the URL's password, and exits 1", async () => {
    const url = new URL(database.url);
    url.username = "operator";
    url.password = "s3cret-Pa55";
    const result = await runCli(["backup", "/tmp/never-written.dump"], { DATABASE_URL: url.toString() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("pg_dump --format=custom --no-owner --file='/tmp/never-written.dump'");
    expect(result.stderr).toContain(`operator@${url.host}`);
    expect(result.stderr + result.stdout).not.toContain("s3cret-Pa55");
  });

  test("PostgreSQL out of reach is one line naming the server, never the password, exit 1", async () => {
    const result = await runCli(["migrate", "--database-url", "postgres://operator:s3cret-Pa55@127.0.0.1:1/none"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Cannot reach PostgreSQL at 127.0.0.1:1");
    expect(result.stderr + result.stdout).not.toContain("s3cret-Pa55");
  });

  test("a database migrated by a newer binary is refused with a clear message, exit 1, and left as it was", async () => {
    await database.pg.$client`INSERT INTO schema_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)`;
    try {
      const result = await runCli(["migrate"], { DATABASE_URL: database.url });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("migrated by a newer version of Broker Directory (migrations 9999_from_the_future)");
      const [row] = await database.pg.$client<{ n: number }[]>`SELECT count(*)::int AS n FROM brokers`;
      expect(row!.n).toBe(25);
    } finally {
      await database.pg.$client`DELETE FROM schema_migrations WHERE tag = '9999_from_the_future'`;
    }
  });

  test("a DATABASE_URL that is not PostgreSQL is a usage error that does not repeat it", async () => {
    const result = await runCli(["seed"], { DATABASE_URL: "mysql://root:hunter2@db/x" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("must be a postgres:// or postgresql:// URL");
    expect(result.stderr).not.toContain("hunter2");
  });
});
