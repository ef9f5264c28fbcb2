import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { MIGRATIONS } from "../../db/migrations.ts";
import { runCli, tempDir } from "./cliHarness.ts";
import { sqliteOnly } from "../support/testDatabase.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

function directoryDigest(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const rows = [
      db.query("SELECT id, slug, name, province, city, published FROM brokers ORDER BY id").all(),
      db.query("SELECT broker_id, rating, title, body FROM reviews ORDER BY id").all(),
    ];
    return new Bun.CryptoHasher("sha256").update(JSON.stringify(rows)).digest("hex");
  } finally {
    db.close();
  }
}

// SQLite only: migrate, seed, backup and restore of SQLite files, inspected with bun:sqlite.
sqliteOnly("migrate applies every migration once, then reports the database up to date", async () => {
  const env = { DATABASE_PATH: tmp.path("migrate.db") };
  const first = await runCli(["migrate"], env);
  expect(first.code).toBe(0);
  expect(first.stdout).toContain(`Applied ${MIGRATIONS.map((m) => m.tag).join(", ")}`);
  const second = await runCli(["migrate"], env);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain("is up to date");
});

// SQLite only: migrate, seed, backup and restore of SQLite files, inspected with bun:sqlite.
sqliteOnly("seed is deterministic: the same seed gives the same directory, another seed another", async () => {
  for (const [name, seed] of [["a.db", "7"], ["b.db", "7"], ["c.db", "8"]] as const) {
    const result = await runCli(["seed", "--brokers", "40", "--reviews-per-broker", "3", "--seed", seed, "--db", tmp.path(name)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("40 brokers");
  }
  expect(directoryDigest(tmp.path("a.db"))).toBe(directoryDigest(tmp.path("b.db")));
  expect(directoryDigest(tmp.path("a.db"))).not.toBe(directoryDigest(tmp.path("c.db")));
});

// SQLite only: migrate, seed, backup and restore of SQLite files, inspected with bun:sqlite.
sqliteOnly("an older binary refuses a database migrated by a newer one, with a clear message and exit 1", async () => {
  const path = tmp.path("future.db");
  expect((await runCli(["migrate", "--db", path])).code).toBe(0);
  const db = new Database(path);
  db.run("INSERT INTO schema_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)");
  db.close();
  for (const args of [["serve", "--db", path, "--port", "0"], ["migrate", "--db", path]]) {
    const result = await runCli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("This database was migrated by a newer version of Broker Directory (migrations 9999_from_the_future)");
    expect(result.stderr).not.toContain("    at ");
  }
});

// SQLite only: migrate, seed, backup and restore of SQLite files, inspected with bun:sqlite.
sqliteOnly("backup copies the database to a new file and never overwrites one", async () => {
  const source = tmp.path("a.db");
  const target = tmp.path("a-backup.db");
  const made = await runCli(["backup", target, "--db", source, "--json"]);
  expect(made.code).toBe(0);
  expect(JSON.parse(made.stdout)).toMatchObject({ path: target });
  expect(directoryDigest(target)).toBe(directoryDigest(source));

  const again = await runCli(["backup", target, "--db", source]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(`${target} already exists; a backup never overwrites a file.`);

  const missing = await runCli(["backup", tmp.path("x.db"), "--db", tmp.path("no-such.db")]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("No database at");
  expect(existsSync(tmp.path("no-such.db"))).toBe(false);
});

// SQLite only: migrate, seed, backup and restore of SQLite files, inspected with bun:sqlite.
sqliteOnly("restore fills an empty path, and replaces a database only with --force", async () => {
  const backup = tmp.path("c.db");
  const fresh = await runCli(["restore", backup, "--db", tmp.path("restored.db")]);
  expect(fresh.code).toBe(0);
  expect(directoryDigest(tmp.path("restored.db"))).toBe(directoryDigest(backup));

  const refused = await runCli(["restore", backup, "--db", tmp.path("b.db")]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("exists. Stop the server, then run restore again with --force");
  const forced = await runCli(["restore", backup, "--db", tmp.path("b.db"), "--force"]);
  expect(forced.code).toBe(0);
  expect(directoryDigest(tmp.path("b.db"))).toBe(directoryDigest(backup));
});

// SQLite only: migrate, seed, backup and restore of SQLite files, inspected with bun:sqlite.
sqliteOnly("restore refuses a file that is not a Broker Directory database", async () => {
  await Bun.write(tmp.path("junk.db"), "not a database at all");
  const result = await runCli(["restore", tmp.path("junk.db"), "--db", tmp.path("never.db")]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("is not a readable SQLite database");
  expect(existsSync(tmp.path("never.db"))).toBe(false);
});
