import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hashApiKey } from "../../src/auth/apiKeyFormat.ts";
import { createLogger } from "../../src/log.ts";
import { PgExecutor } from "../../src/storage/pg/pgExecutor.ts";
import { createPgStores, type RunningPgStores } from "../../src/storage/pg/pgStores.ts";
import { PgVersionWatch } from "../../src/storage/pg/versionWatch.ts";
import { KeyStore } from "../../src/storage/stores/keyStore.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";
import { eventually } from "../support/eventually.ts";

const log = createLogger("silent");
let db: PgTestDatabase;
let running: RunningPgStores;

beforeAll(async () => {
  db = await createPgTestDatabase();
  running = await createPgStores(db.pg, log);
});
afterAll(async () => {
  await running.stop();
  await db.drop();
});

describe("KeyStore over PostgreSQL", () => {
  test("create stores only the hash and lists the key with its workspace; list is oldest first, listIn newest first", async () => {
    const keys = running.stores.keys;
    const first = await keys.create({ workspace: "acme", name: "first" }, 1_000);
    const second = await keys.create({ workspace: "acme", name: "second", scopes: ["brokers:read", "brokers:read"], origins: ["https://a.example"], rateLimitPerMinute: 7, expiresAt: 9_000_000 }, 2_000);
    expect(first.key).toMatch(/^brk_/);
    expect(first.record).not.toHaveProperty("hash");
    expect(second.record).toMatchObject({ workspaceName: "acme", scopes: ["brokers:read"], origins: ["https://a.example"], rateLimitPerMinute: 7, expiresAt: 9_000_000 });
    const [row] = await db.pg.$client<{ hash: string }[]>`SELECT hash FROM api_keys WHERE id = ${first.record.id}`;
    expect(row!.hash).toBe(hashApiKey(first.key));
    const all = await keys.list();
    expect(all.filter((k) => k.workspaceName === "acme").map((k) => k.name)).toEqual(["first", "second"]);
    expect((await keys.listIn(first.record.workspaceId)).map((k) => k.name)).toEqual(["second", "first"]);
    expect(await keys.findIn(first.record.id, first.record.workspaceId)).toMatchObject({ id: first.record.id, workspaceName: "acme" });
    expect(await keys.findIn(first.record.id, "ws_other")).toBeUndefined();
    expect(await keys.count()).toBeGreaterThanOrEqual(2);
  });

  test("findByHash answers a promise on a miss, then the value itself (no promise) from the cache, unknown hashes included", async () => {
    const keys = running.stores.keys;
    const { key, record } = await keys.create({ workspace: "cache" }, 1_000);
    const miss = keys.findByHash(hashApiKey(key));
    expect(miss).toBeInstanceOf(Promise);
    expect((await miss)?.id).toBe(record.id);
    const hit = keys.findByHash(hashApiKey(key));
    expect(hit).not.toBeInstanceOf(Promise);
    expect((hit as { id: string }).id).toBe(record.id);
    const unknown = hashApiKey("brk_not-a-real-key");
    expect(await keys.findByHash(unknown)).toBeUndefined();
    expect(keys.findByHash(unknown)).toBeUndefined();
  });

  test("revoke is seen by this instance's very next lookup, and by a second instance within a second", async () => {
    const keys = running.stores.keys;
    const other = db.open();
    const otherWatch = new PgVersionWatch(other, "keys_version", log);
    await otherWatch.start();
    try {
      const otherKeys = new KeyStore(new PgExecutor(other), undefined, otherWatch);
      const { key, record } = await keys.create({ workspace: "revoking" }, 1_000);
      const hash = hashApiKey(key);
      await keys.findByHash(hash);
      // The other instance hears of the new key asynchronously (NOTIFY): a lookup before that is
      // cached under the version before it, and the announcement arriving next would void it.
      expect(await eventually(() => otherWatch.current() >= running.keysVersion.current())).toBe(true);
      expect((await otherKeys.findByHash(hash))?.revokedAt).toBeNull();
      expect(otherKeys.findByHash(hash)).not.toBeInstanceOf(Promise); // cached there too

      expect(await keys.revoke(record.id, 5_000)).toBe(true);
      expect((await keys.findByHash(hash))?.revokedAt).toBe(5_000);
      expect(await eventually(async () => (await otherKeys.findByHash(hash))?.revokedAt === 5_000)).toBe(true);

      expect(await keys.revoke(record.id, 9_000)).toBe(true); // twice keeps the first time
      expect((await keys.findIn(record.id, record.workspaceId))?.revokedAt).toBe(5_000);
      expect(await keys.revoke("key_unknown", 9_000)).toBe(false);
    } finally {
      await otherWatch.stop();
    }
  });

  test("roll (a grace) keeps an earlier expiry, rolls a key once, skips revoked keys; revokeNamed revokes only live keys of that name", async () => {
    const keys = running.stores.keys;
    const a = await keys.create({ workspace: "roll", name: "svc", expiresAt: 50_000 }, 1_000);
    const b = await keys.create({ workspace: "roll", name: "svc" }, 1_000);
    const c = await keys.create({ workspace: "roll", name: "other" }, 1_000);
    const workspace = (await keys.workspaceByName("roll"))!;
    const rolledA = await keys.roll(a.record.id, workspace, 89_000, 1_000, 100);
    const rolledB = await keys.roll(b.record.id, workspace, 89_000, 1_000, 100);
    if ("refused" in rolledA || "refused" in rolledB) throw new Error("a live key was not rolled");
    expect(rolledA.previous.expiresAt).toBe(50_000);
    expect(rolledA.record.expiresAt).toBe(50_000); // the successor keeps the original expiry
    expect(rolledB.previous).toMatchObject({ expiresAt: 90_000, replacedBy: rolledB.record.id });
    expect(rolledB.record.expiresAt).toBeNull();
    expect((await keys.findByHash(hashApiKey(b.key)))?.expiresAt).toBe(90_000); // seen at once here
    expect(await keys.roll(b.record.id, workspace, 89_000, 2_000, 100)).toEqual({ refused: "not-rollable" });
    await keys.revoke(rolledA.record.id, 3_000);
    await keys.revoke(rolledB.record.id, 3_000);
    await keys.revokeNamed("roll", "svc", 7_000);
    await keys.revokeNamed("no-such-workspace", "svc", 7_000);
    const listed = await keys.listIn(a.record.workspaceId);
    expect(Object.fromEntries(listed.map((k) => [k.id, k.revokedAt]))).toEqual({
      [a.record.id]: 7_000,
      [b.record.id]: 7_000,
      [c.record.id]: null,
      [rolledA.record.id]: 3_000,
      [rolledB.record.id]: 3_000,
    });
  });

  test("ensureWorkspace is race-safe: ten at once make one workspace", async () => {
    const keys = running.stores.keys;
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => keys.ensureWorkspace("racing", 1_000 + i)));
    expect(new Set(made.map((w) => w.id)).size).toBe(1);
    expect(await keys.workspaceByName("racing")).toEqual(made[0]!);
    expect(await keys.workspaceById(made[0]!.id)).toEqual(made[0]!);
    expect(await keys.workspaceByName("nobody")).toBeUndefined();
  });

  test("recordUse writes lastUsedAt in the background, at most once a minute per key", async () => {
    const keys = running.stores.keys;
    const { record } = await keys.create({ workspace: "usage" }, 1_000);
    const lastUsed = async () => (await keys.findIn(record.id, record.workspaceId))?.lastUsedAt;
    keys.recordUse(record.id, 100_000);
    expect(await eventually(async () => (await lastUsed()) === 100_000)).toBe(true);
    keys.recordUse(record.id, 130_000); // within the minute: skipped
    keys.recordUse(record.id, 170_000);
    expect(await eventually(async () => (await lastUsed()) === 170_000)).toBe(true);
  });
});
