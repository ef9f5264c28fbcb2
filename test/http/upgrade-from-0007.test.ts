/**
 * A database written before reviews were clustered by broker (schema at migration 0007, the
 * reviews table keyed by rowid) is upgraded at start by 0008 with nothing lost: every review
 * keeps its id and fields, brokers keep their rating aggregates, the rating triggers and the
 * directory-version triggers work on the new table, and pages answer in the same order.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../db/migrations.ts";
import type { RunningApp } from "../../src/app.ts";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { applyMigrationsBefore, startUpgradedApp } from "../support/oldDatabase.ts";
import { describeSqliteOnly } from "../support/testDatabase.ts";


// SQLite only: upgrades an old SQLite file.
describeSqliteOnly("over SQLite", () => {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-upgrade-0007-"));
  const databasePath = join(dir, "old.db");
  let app: RunningApp;
  let key: string;

  interface ReviewRow { id: number; broker_id: number; author_name: string; rating: number; title: string; body: string; published: number; created_at: number }
  const REVIEWS = "SELECT id, broker_id, author_name, rating, title, body, published, created_at FROM reviews ORDER BY id";
  const AGGREGATES = "SELECT id, review_count, average_rating, rating_1, rating_2, rating_3, rating_4, rating_5 FROM brokers ORDER BY id";
  let reviewsBefore: ReviewRow[];
  let aggregatesBefore: unknown[];
  let versionBefore: number;

  beforeAll(async () => {
    const db = openDatabase(databasePath);
    const client = db.$client;
    applyMigrationsBefore(client, "0008_reviews_clustered_by_broker");
    const broker = client.prepare(
      `INSERT INTO brokers (id, slug, name, sort_name, description, province, city, insurance_lines, specialties, languages, published, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'A broker.', 'ON', 'Ottawa', '["Auto"]', '[]', '["English"]', 1, 0, 0)`,
    );
    for (let id = 1; id <= 6; id++) broker.run(id, `broker-${id}`, `Broker ${id}`, `broker ${id}`);
    // Reviews of all brokers interleaved (as they arrive in real life), ids not in creation
    // order, creation times tied, some unpublished; rowids left to SQLite as the old schema did.
    const review = client.prepare("INSERT INTO reviews (broker_id, author_name, rating, title, body, published, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    for (let n = 0; n < 240; n++) {
      review.run(1 + (n % 6), `Reviewer${n} Name`, 1 + ((n * 3) % 5), `Title ${n}`, `Body ${n} – très bien`, n % 11 === 4 ? 0 : 1, Date.UTC(2025, 0, 1) + ((n * 37) % 50) * 60_000);
    }
    client.run("DELETE FROM reviews WHERE id IN (7, 8, 100)"); // gaps in the ids
    reviewsBefore = client.query<ReviewRow, []>(REVIEWS).all();
    aggregatesBefore = client.query(AGGREGATES).all();
    versionBefore = client.query<{ value: number }, []>("SELECT value FROM meta WHERE key = 'directory_version'").get()!.value;
    closeDatabase(db);

    ({ app, key } = await startUpgradedApp(databasePath));
  });
  afterAll(async () => {
    await app.stop(1_000);
    rmSync(dir, { recursive: true, force: true });
  });

  const client = () => app.services.db.$client;
  const aggregatesOf = (id: number) => client().query(`${AGGREGATES.replace(" ORDER BY id", "")} WHERE id = ?`).get(id);

  test("start applies 0008 (and what follows it) only", () => {
    expect(app.migrationsApplied[0]).toBe("0008_reviews_clustered_by_broker");
    expect(app.migrationsApplied).toEqual(MIGRATIONS.map((m) => m.tag).slice(8));
  });

  test("every review keeps its id and every field; every broker keeps its rating aggregates", () => {
    expect(reviewsBefore.length).toBe(237);
    expect(client().query<ReviewRow, []>(REVIEWS).all()).toEqual(reviewsBefore);
    expect(client().query(AGGREGATES).all()).toEqual(aggregatesBefore);
  });

  test("the table is clustered by broker (WITHOUT ROWID, keyed by broker, published, created, id), with its indexes and triggers", () => {
    const table = client().query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'reviews'").get()!.sql;
    expect(table).toContain("WITHOUT ROWID");
    expect(table).toContain("PRIMARY KEY(`broker_id`, `published`, `created_at`, `id`)");
    const names = (type: string) =>
      client().query<{ name: string }, [string]>("SELECT name FROM sqlite_master WHERE type = ? AND tbl_name = 'reviews' ORDER BY name").all(type).map((r) => r.name);
    // reviews_external_id: the operator's import key (migration 0013), unique where given;
    // reviews_created: the moderation queue's order (0017).
    expect(names("index")).toEqual(["reviews_broker_rating", "reviews_created", "reviews_external_id", "reviews_id"]);
    expect(names("trigger")).toEqual([
      "reviews_aggregate_delete", "reviews_aggregate_insert", "reviews_aggregate_update_new", "reviews_aggregate_update_old",
      "reviews_version_delete", "reviews_version_insert", "reviews_version_update",
    ]);
    expect(client().query<{ value: number }, []>("SELECT value FROM meta WHERE key = 'directory_version'").get()!.value).toBeGreaterThan(versionBefore);
    const plan = client().query<{ detail: string }, []>("EXPLAIN QUERY PLAN SELECT * FROM reviews WHERE broker_id = 1 AND published = 1 ORDER BY created_at DESC, id DESC LIMIT 20").all();
    expect(plan.map((p) => p.detail).join("\n")).toMatch(/USING PRIMARY KEY \(broker_id=\? AND published=\?\)/);
    expect(plan.map((p) => p.detail).join("\n")).not.toContain("TEMP B-TREE");
    // The moderation queue (every review, newest first) reads reviews_created from its end, never sorting the table.
    const queue = client().query<{ detail: string }, []>("EXPLAIN QUERY PLAN SELECT * FROM reviews ORDER BY created_at DESC, id DESC LIMIT 20").all();
    expect(queue.map((p) => p.detail).join("\n")).toContain("USING INDEX reviews_created");
    expect(queue.map((p) => p.detail).join("\n")).not.toContain("TEMP B-TREE");
  });

  test("pages answer in the same order as before the upgrade (newest first, ties by id)", async () => {
    for (const brokerId of [1, 4, 6]) {
      const expected = reviewsBefore
        .filter((r) => r.broker_id === brokerId && r.published === 1)
        .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
        .map((r) => String(r.id));
      const res = await fetch(`${app.url}/api/v1/reviews/${brokerId}?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { data: { id: string }[]; pagination: { total: number } };
      expect(body.data.map((r) => r.id)).toEqual(expected);
      expect(body.pagination.total).toBe(expected.length);
    }
  });

  test("after the upgrade, writes to reviews still keep the aggregates and the directory version", () => {
    const version = () => client().query<{ value: number }, []>("SELECT value FROM meta WHERE key = 'directory_version'").get()!.value;
    const start = version();
    const before = aggregatesOf(2) as { review_count: number; rating_5: number };
    client().run("INSERT INTO reviews (id, broker_id, author_name, rating, title, body, published, created_at) VALUES (5000, 2, 'New Person', 5, 'T', 'B', 1, 1)");
    expect(aggregatesOf(2)).toMatchObject({ review_count: before.review_count + 1, rating_5: before.rating_5 + 1 });
    client().run("UPDATE reviews SET published = 0 WHERE id = 5000");
    expect(aggregatesOf(2)).toEqual(before);
    client().run("UPDATE reviews SET published = 1 WHERE id = 5000");
    client().run("DELETE FROM reviews WHERE id = 5000");
    expect(aggregatesOf(2)).toEqual(before);
    expect(version()).toBeGreaterThanOrEqual(start + 4);
    // Ids stay unique, and a review is found by its id without a scan.
    expect(() => client().run("INSERT INTO reviews (id, broker_id, author_name, rating, title, body, published, created_at) VALUES (1, 3, 'Dup', 5, 'T', 'B', 1, 2)")).toThrow(/UNIQUE/);
    const plan = client().query<{ detail: string }, []>("EXPLAIN QUERY PLAN SELECT * FROM reviews WHERE id = 12").all();
    expect(plan.map((p) => p.detail).join("\n")).toContain("reviews_id");
  });
});
