import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../db/migrations.ts";
import { isVerifiedFor, teamSizeFor } from "../../src/demo/profileBands.ts";
import type { RunningApp } from "../../src/app.ts";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { applyMigrationsBefore, startUpgradedApp } from "../support/oldDatabase.ts";
import { describeSqliteOnly } from "../support/testDatabase.ts";

/**
 * A database written by the release before the contract work (schema at migration 0003, with
 * `year_established`) is upgraded at start with nothing lost: brokers keep their founding
 * year, gain a team size and a verification mark, and keys, reviews and leads still work.
 */

// SQLite only: upgrades an old SQLite file.
describeSqliteOnly("over SQLite", () => {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-upgrade-"));
  const databasePath = join(dir, "old.db");
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    const db = openDatabase(databasePath);
    const client = db.$client;
    applyMigrationsBefore(client, "0004_broker_profile_fields");
    expect(MIGRATIONS[3]!.tag).toBe("0003_leaner_review_triggers");
    const insert = client.prepare(
      `INSERT INTO brokers (id, slug, name, sort_name, description, province, city, phone, email, website, license_number,
         year_established, insurance_lines, specialties, languages, published, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'An old broker.', 'ON', 'Ottawa', '+16135550100', 'a@b.ca', 'https://b.ca', ?, ?, '["Auto"]', '[]', '["English"]', 1, 0, 0)`,
    );
    for (let id = 1; id <= 40; id++) insert.run(id, `old-broker-${id}`, `Old Broker ${id}`, `old broker ${id}`, id % 9 === 0 ? null : `ON-${id}`, 1950 + id);
    client.run("INSERT INTO broker_locations (broker_id, address, city, city_key, province, postal_code, is_primary) VALUES (7, '1 Main', 'Ottawa', 'ottawa', 'ON', 'K1A 0A1', 1)");
    client.run("INSERT INTO reviews (broker_id, author_name, rating, title, body, published, created_at) VALUES (7, 'Ann Lee', 4, 'Good', 'Kept my premium down.', 1, 1000)");
    closeDatabase(db);

    ({ app, key } = await startUpgradedApp(databasePath));
  });
  afterAll(async () => {
    await app.stop(1_000);
    rmSync(dir, { recursive: true, force: true });
  });

  type Answer = { data: Record<string, unknown> };
  const get = async (path: string) => (await (await fetch(app.url + path, { headers: { Authorization: `Bearer ${key}` } })).json()) as Answer;

  test("start applies the migrations after 0003 only, 0004 first", () => {
    expect(app.migrationsApplied[0]).toBe("0004_broker_profile_fields");
    expect(app.migrationsApplied).toEqual(MIGRATIONS.map((m) => m.tag).slice(4));
  });

  test("every broker keeps its founding year and gets the generator's team size and verification mark", async () => {
    for (const id of [1, 7, 9, 18, 40]) {
      const { data } = await get(`/api/v1/brokers/old-broker-${id}`);
      expect(data).toMatchObject({
        id: String(id),
        foundingYear: 1950 + id,
        teamSize: teamSizeFor(id),
        isVerified: isVerifiedFor(id, id % 9 === 0 ? null : `ON-${id}`),
      });
    }
    const bands = new Set(app.services.db.$client.query<{ team_size: string }, []>("SELECT team_size FROM brokers").all().map((r) => r.team_size));
    expect(bands.size).toBeGreaterThan(2);
  });

  test("reviews, aggregates and free-text search survive the upgrade", async () => {
    const reviews = await get("/api/v1/reviews/7");
    expect(reviews.data as unknown).toEqual([expect.objectContaining({ content: "Kept my premium down.", authorName: "Ann L.", brokerId: "7" })]);
    const { data } = await get("/api/v1/brokers/old-broker-7");
    expect(data.rating).toMatchObject({ averageRating: 4, totalReviews: 1 });
    const search = await get("/api/v1/brokers?q=broker%2012");
    expect((search.data as unknown as { slug: string }[]).map((b) => b.slug)).toContain("old-broker-12");
  });
});
