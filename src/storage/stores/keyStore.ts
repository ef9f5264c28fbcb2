import { and, asc, desc, eq, gt, isNull, lt, or, sql, type Column } from "drizzle-orm";
import { apiKeys, workspaces } from "../../../db/schema.ts";
import { displayPrefix, generateApiKey, hashApiKey } from "../../auth/apiKeyFormat.ts";
import { DEFAULT_KEY_RATE_LIMIT, DEFAULT_SCOPES, type Scope } from "../../auth/keyVocabulary.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";
import { isBusyLock } from "../storageFault.ts";
import { MetaCounter } from "../sqlite/metaCounter.ts";
import { VersionedCache } from "../versionedCache.ts";
import type { StorageHealth } from "../sqlite/storageHealth.ts";

export type StoredKey = typeof apiKeys.$inferSelect;
export type KeyListing = Omit<StoredKey, "hash"> & { workspaceName: string };
export type Workspace = typeof workspaces.$inferSelect;

export interface NewKey {
  workspace: string;
  name?: string;
  scopes?: Scope[];
  rateLimitPerMinute?: number;
  expiresAt?: number | null;
  origins?: string[] | null;
}

/** lastUsedAt is written at most this often per key, so the read path is not a write path. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * Keys looked up by hash, kept between requests: every request is admitted with one, and the
 * lookup was the largest cost of a cached answer. Unknown hashes are kept too (as null), so a
 * flood of wrong keys does not reach SQLite either; the caps bound what either may hold.
 */
export const KEY_CACHE_LIMITS = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 };

/** A new key's secret and its row (both dialects store the same row). */
export function newKey(workspace: Workspace, input: Omit<NewKey, "workspace">, now: number): { key: string; record: StoredKey } {
  const key = generateApiKey();
  const record: StoredKey = {
    id: `key_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
    workspaceId: workspace.id,
    name: input.name ?? "default",
    displayPrefix: displayPrefix(key),
    hash: hashApiKey(key),
    scopes: input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : [...DEFAULT_SCOPES],
    rateLimitPerMinute: input.rateLimitPerMinute ?? DEFAULT_KEY_RATE_LIMIT,
    origins: input.origins && input.origins.length > 0 ? input.origins : null,
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
    createdAt: now,
    lastUsedAt: null,
    replacedBy: null,
  };
  return { key, record };
}

/** What a listing shows of a key: everything but its hash, with its workspace's name. */
export function listingOf(record: StoredKey, workspace: Workspace): KeyListing {
  const { hash: _hash, ...listing } = record;
  return { ...listing, workspaceName: workspace.name };
}

/** A key just made: its only full copy, and its listing. */
export type CreatedKey = { key: string; record: KeyListing };

/**
 * Why a bounded write was refused, as a value for the caller to word: the workspace already
 * has its maximum of live keys, or the key to roll is no longer live and unrolled (revoked,
 * expired, or rolled already — perhaps by a concurrent roll a moment earlier).
 */
export type KeyWriteRefusal = { refused: "workspace-full"; live: number } | { refused: "not-rollable" };

/** A roll's outcome: the successor and the key it replaced, as they are now. */
export type RolledKey = CreatedKey & { previous: KeyListing };

/** The settings a successor copies from the key it replaces (its expiry included, as it was before the roll). */
export function successorOf(old: StoredKey): Omit<NewKey, "workspace"> {
  return { name: old.name, scopes: old.scopes as Scope[], rateLimitPerMinute: old.rateLimitPerMinute, expiresAt: old.expiresAt, origins: old.origins };
}

/** What a roll writes on the old key: revoked at once (grace 0), else expiring when the grace ends, an earlier expiry kept. */
export function rollEnd(old: StoredKey, graceMs: number, now: number): { revokedAt: number } | { expiresAt: number } {
  if (graceMs === 0) return { revokedAt: now };
  const end = now + graceMs;
  return { expiresAt: old.expiresAt === null ? end : Math.min(old.expiresAt, end) };
}

/** A candidate workspace row for ensureWorkspace (kept only if the name is new). */
export function newWorkspace(name: string, now: number): Workspace {
  return { id: `ws_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`, name, createdAt: now };
}

/** The api_keys columns the predicates below read, of either dialect's table. */
type KeyColumns = { revokedAt: Column; expiresAt: Column; replacedBy: Column };

/** A key that still works at `now`: not revoked, not expired (both dialects' queries use this). */
export function live(keys: KeyColumns, now: number) {
  return and(isNull(keys.revokedAt), or(isNull(keys.expiresAt), gt(keys.expiresAt, now)));
}

/** A live key that no roll has replaced yet: the only kind a roll may replace. */
export function rollable(keys: KeyColumns, now: number) {
  return and(live(keys, now), isNull(keys.replacedBy));
}

/** API keys and the workspaces they belong to. Only SHA-256 hashes of keys are stored. */
export class KeyStore {
  private readonly byHash;
  /** Bumped by triggers on every change admission depends on (migration 0007), from any process. */
  private readonly version: MetaCounter;
  private readonly cache = new VersionedCache<StoredKey | null>("api-keys", KEY_CACHE_LIMITS);
  private readonly touch;
  private readonly writes: GroupCommit;
  /** When this process last wrote each key's lastUsedAt: the read path skips the UPDATE in between. */
  private readonly lastUseWritten = new Map<string, number>();

  constructor(
    private readonly db: DirectoryDb,
    /** Told when the lastUsedAt write fails (a read must not fail for bookkeeping). */
    private readonly storage?: Pick<StorageHealth, "bookkeepingFailed">,
  ) {
    this.version = new MetaCounter(db, "keys_version");
    this.writes = GroupCommit.of(db.$client);
    this.byHash = db.select().from(apiKeys).where(eq(apiKeys.hash, sql.placeholder("hash"))).prepare();
    this.touch = db
      .update(apiKeys)
      .set({ lastUsedAt: sql`${sql.placeholder("now")}` })
      .where(
        and(
          eq(apiKeys.id, sql.placeholder("id")),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql.placeholder("staleBefore"))),
        ),
      )
      .prepare();
  }

  /** Creates the key (and its workspace if new); returns the only copy of the full key. */
  async create(input: NewKey, now: number): Promise<{ key: string; record: KeyListing }> {
    const candidate = newWorkspace(input.workspace, now);
    let made: ReturnType<typeof newKey> | undefined;
    const workspace = await this.writes.write(() => {
      const workspace = this.ensureWorkspaceNow(candidate);
      made ??= newKey(workspace, input, now);
      this.db.insert(apiKeys).values(made.record).run();
      return workspace;
    });
    this.version.invalidate();
    return { key: made!.key, record: listingOf(made!.record, workspace) };
  }

  /**
   * Creates a key unless the workspace already has `maxLive` live keys (revoked and expired ones
   * do not count, keys in a roll's grace do). Count and insert are one write of the group commit,
   * whose transaction takes the write lock first (BEGIN IMMEDIATE): a second process (the CLI,
   * another request) cannot slip a key in between. It may run twice (see GroupCommit): only the
   * run that committed is returned.
   */
  async createBounded(workspace: Workspace, input: Omit<NewKey, "workspace">, now: number, maxLive: number): Promise<CreatedKey | KeyWriteRefusal> {
    const made = await this.writes.write((): CreatedKey | KeyWriteRefusal => {
        const live = this.liveCount(workspace.id, now);
        if (live >= maxLive) return { refused: "workspace-full", live };
        const fresh = newKey(workspace, input, now);
        this.db.insert(apiKeys).values(fresh.record).run();
        return { key: fresh.key, record: listingOf(fresh.record, workspace) };
    });
    if ("key" in made) this.version.invalidate();
    return made;
  }

  /**
   * Replaces a live key with a new one of its settings, at most once: the old key is marked
   * replaced_by in the same write (one IMMEDIATE transaction) as the successor's insert, by an UPDATE that
   * matches only a live key not rolled yet. Of concurrent rolls exactly one makes a successor.
   * A roll with a grace adds a live key for its length, so it needs room under `maxLive`;
   * grace 0 replaces one live key with another and always fits.
   */
  async roll(id: string, workspace: Workspace, graceMs: number, now: number, maxLive: number): Promise<RolledKey | KeyWriteRefusal> {
    const rolled = await this.writes.write((): RolledKey | KeyWriteRefusal => {
        const old = this.db.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspace.id))).get();
        if (!old) return { refused: "not-rollable" };
        if (graceMs > 0) {
          const live = this.liveCount(workspace.id, now);
          if (live >= maxLive) return { refused: "workspace-full", live };
        }
        const fresh = newKey(workspace, successorOf(old), now);
        const marked = this.db
          .update(apiKeys)
          .set({ replacedBy: fresh.record.id, ...rollEnd(old, graceMs, now) })
          .where(and(eq(apiKeys.id, id), rollable(apiKeys, now)))
          .returning({ id: apiKeys.id })
          .all();
        if (marked.length === 0) return { refused: "not-rollable" };
        this.db.insert(apiKeys).values(fresh.record).run();
        const previous = this.findIn(id, workspace.id);
        if (!previous) throw new Error(`key ${id} vanished inside its own roll`);
        return { key: fresh.key, record: listingOf(fresh.record, workspace), previous };
    });
    if ("key" in rolled) this.version.invalidate();
    return rolled;
  }

  /** The workspace's live keys: neither revoked nor expired (keys in a roll's grace are live). */
  private liveCount(workspaceId: string, now: number): number {
    return this.db.select({ n: sql<number>`count(*)` }).from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), live(apiKeys, now))).get()?.n ?? 0;
  }

  /**
   * The key with this hash, from the cache while no key has changed anywhere: a revocation, an
   * expiry, a new scope list or limit in any process moves keys_version, which empties the cache
   * before the next lookup. (The version is read first: a change racing the lookup is seen next turn.)
   */
  findByHash(hash: string): StoredKey | undefined {
    return this.cache.get(hash, this.version.current(), () => this.byHash.get({ hash }) ?? null) ?? undefined;
  }

  /** The key cache's size against its caps (for /metrics and the memory-bounds test). */
  caches() {
    return [this.cache];
  }

  /**
   * Writes lastUsedAt when this process has not written it for the key within the precision,
   * in the next write batch: the request does not wait for it. It is bookkeeping: when the
   * write fails (disk full, read-only file) the request has gone on, and the failure is
   * reported, never thrown; when another process held the lock too long, the next use tries again.
   */
  recordUse(id: string, now: number): void {
    const written = this.lastUseWritten.get(id);
    if (written !== undefined && now - written < LAST_USED_PRECISION_MS) return;
    this.lastUseWritten.set(id, now);
    this.writes
      .write(() => this.touch.run({ id, now, staleBefore: now - LAST_USED_PRECISION_MS }))
      .catch((error: unknown) => {
        if (isBusyLock(error) && this.lastUseWritten.get(id) === now) this.lastUseWritten.delete(id);
        this.storage?.bookkeepingFailed(error, "lastUsedAt");
      });
  }

  list(): KeyListing[] {
    return this.listing().orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)).all();
  }

  private listing() {
    return this.db
      .select({
        id: apiKeys.id,
        workspaceId: apiKeys.workspaceId,
        workspaceName: workspaces.name,
        name: apiKeys.name,
        displayPrefix: apiKeys.displayPrefix,
        scopes: apiKeys.scopes,
        rateLimitPerMinute: apiKeys.rateLimitPerMinute,
        origins: apiKeys.origins,
        expiresAt: apiKeys.expiresAt,
        revokedAt: apiKeys.revokedAt,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        replacedBy: apiKeys.replacedBy,
      })
      .from(apiKeys)
      .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
      .$dynamic();
  }

  /** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string, now: number): Promise<boolean> {
    const found = await this.writes.write(() => {
      const row = this.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id)).get();
      if (row) this.db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).run();
      return row !== undefined;
    });
    this.version.invalidate();
    return found;
  }

  /** Revokes every live key with this name in the workspace (for keys the service makes itself). */
  async revokeNamed(workspaceName: string, keyName: string, now: number): Promise<void> {
    await this.writes.write(() => {
      const workspace = this.db.select().from(workspaces).where(eq(workspaces.name, workspaceName)).get();
      if (!workspace) return;
      this.db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.workspaceId, workspace.id), eq(apiKeys.name, keyName), isNull(apiKeys.revokedAt)))
        .run();
    });
    this.version.invalidate();
  }

  workspaceById(id: string): Workspace | undefined {
    return this.db.select().from(workspaces).where(eq(workspaces.id, id)).get();
  }

  workspaceByName(name: string): Workspace | undefined {
    return this.db.select().from(workspaces).where(eq(workspaces.name, name)).get();
  }

  /** One workspace's keys, newest first, without hashes. */
  listIn(workspaceId: string): KeyListing[] {
    return this.listing().where(eq(apiKeys.workspaceId, workspaceId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).all();
  }

  /** A key of this workspace (another workspace's key is not found, like an unknown id). */
  findIn(id: string, workspaceId: string): KeyListing | undefined {
    return this.listing().where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId))).get();
  }

  count(): number {
    return this.db.select({ n: sql<number>`count(*)` }).from(apiKeys).get()?.n ?? 0;
  }

  /**
   * The workspace of this name, made if it does not exist yet. Insert-or-nothing, then read:
   * two processes (say two `keys create` for a new workspace) may race here, and a check
   * followed by an insert let the second one fail on the unique name.
   */
  ensureWorkspace(name: string, now: number): Promise<Workspace> {
    const candidate = newWorkspace(name, now);
    return this.writes.write(() => this.ensureWorkspaceNow(candidate));
  }

  /** ensureWorkspace's statements, inside a write batch. */
  private ensureWorkspaceNow(candidate: Workspace): Workspace {
    this.db.insert(workspaces).values(candidate).onConflictDoNothing({ target: workspaces.name }).run();
    return this.workspaceByName(candidate.name) ?? candidate;
  }
}
