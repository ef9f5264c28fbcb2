/**
 * The idempotency records' store (src/storage/stores/idempotencyStore.ts) over SQLite, through
 * SQLite's executor and the plain one PostgreSQL's path takes (over PostgreSQL itself the store
 * runs in test/http/idempotency.test.ts under scripts/test-on-postgres.ts): a claim takes a free
 * or expired key and yields a live one to its holder; the purge deletes records past 24 hours;
 * a workspace over its cap loses its oldest records first.
 */
import { describe, expect, test } from "bun:test";
import { openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { IDEMPOTENCY_WINDOW_MS, KeyClaims, IdempotencyStore, type IdempotencyRecord } from "../../src/storage/stores/idempotencyStore.ts";
import { plainExecutor } from "../support/plainExecutor.ts";

const paths = {
  "SQLite's executor": (db: DirectoryDb) => SqliteExecutor.of(db),
  "the plain executor (PostgreSQL's path)": (db: DirectoryDb) => plainExecutor(SqliteExecutor.of(db)),
};

const record = (key: string, createdAt: number, workspaceId = "ws", answer = `{"n":"${key}"}`): IdempotencyRecord => ({ workspaceId, key, fingerprint: "f", answer, createdAt });

describe.each(Object.entries(paths))("%s", (_, executorOf) => {
  function setup(perWorkspace?: number) {
    const db = openDatabase(":memory:");
    migrate(db);
    db.$client.run("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Workspace', 0), ('other', 'Other', 0)");
    const x = executorOf(db);
    const claims = new KeyClaims(x);
    const claim = (r: IdempotencyRecord) => x.write((d) => claims.claim(d, r));
    return { db, x, claim, store: new IdempotencyStore(x, perWorkspace) };
  }
  const keys = (db: DirectoryDb) => (db.$client.query("SELECT workspace_id || '/' || key AS k FROM idempotency_records ORDER BY created_at, key").all() as { k: string }[]).map((r) => r.k);

  test("a free key is claimed; a live one answers its holder; one past 24 hours is taken over", async () => {
    const { claim, store } = setup();
    const t0 = 1_000_000;
    expect(await claim(record("a", t0))).toBeUndefined();
    expect(await claim(record("a", t0 + 5, "ws", "second"))).toEqual(record("a", t0));
    expect(await claim(record("a", t0 + 5, "other"))).toBeUndefined(); // another workspace's key
    expect(await store.find("ws", "a", t0 + IDEMPOTENCY_WINDOW_MS - 1)).toEqual(record("a", t0));
    expect(await store.find("ws", "a", t0 + IDEMPOTENCY_WINDOW_MS)).toBeUndefined();
    const later = t0 + IDEMPOTENCY_WINDOW_MS;
    expect(await claim(record("a", later, "ws", "renewed"))).toBeUndefined();
    expect(await store.find("ws", "a", later)).toEqual(record("a", later, "ws", "renewed"));
  });

  test("the purge deletes what is past 24 hours, and trims a workspace over its cap oldest first", async () => {
    const { db, claim, store } = setup(3);
    for (let i = 0; i < 6; i++) await claim(record(`k${i}`, 1_000 + i));
    await claim(record("x", 1_000, "other"));
    expect((await store.overCap()).map((w) => w.workspaceId)).toEqual(["ws"]);
    expect(await store.trimBatch("ws")).toBe(3);
    expect(await store.overCap()).toEqual([]);
    expect(keys(db)).toEqual(["other/x", "ws/k3", "ws/k4", "ws/k5"]);
    expect(await store.purgeBatch(1_003 + IDEMPOTENCY_WINDOW_MS)).toBe(2);
    expect(keys(db)).toEqual(["ws/k4", "ws/k5"]);
  });
});
