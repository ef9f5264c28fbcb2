import { and, asc, count, desc, eq, getTableColumns, gt, inArray, isNull, lt, or, sql, type Column } from "drizzle-orm";
import type { apiKeys, workspaces } from "../../../db/schema.ts";
import { displayPrefix, generateApiKey, hashApiKey } from "../../auth/apiKeyFormat.ts";
import { DEFAULT_KEY_RATE_LIMIT, defaultScopesFor, type Scope } from "../../auth/keyVocabulary.ts";
import { row, rows, run, type Awaitable, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { storable } from "../storableText.ts";
import { KeyClaims, type IdempotencyRecord } from "./idempotencyStore.ts";
import { MetaCounter } from "../sqlite/metaCounter.ts";
import { SqliteExecutor } from "../sqlite/sqliteExecutor.ts";
import type { StorageHealth } from "../sqlite/storageHealth.ts";
import { isBusyLock } from "../storageFault.ts";
import { VersionedCache } from "../versionedCache.ts";

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

/** What editing a key may change: never its secret, scopes or expiry (a roll or a new key does that). */
export type KeyChange = Partial<Pick<StoredKey, "name" | "origins" | "rateLimitPerMinute">>;

/** lastUsedAt is written at most this often per key, so the read path is not a write path. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * Keys looked up by hash, kept between requests: every request is admitted with one, and the
 * lookup was the largest cost of a cached answer. Unknown hashes are kept too (as null), so a
 * flood of wrong keys does not reach the database either; the caps bound what either may hold.
 */
export const KEY_CACHE_LIMITS = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 };

/** A new key's secret and its row. */
function newKey(workspace: Workspace, input: Omit<NewKey, "workspace">, now: number): { key: string; record: StoredKey } {
  const key = generateApiKey();
  const record: StoredKey = {
    id: `key_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
    workspaceId: workspace.id,
    name: input.name ?? "default",
    displayPrefix: displayPrefix(key),
    hash: hashApiKey(key),
    scopes: input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : defaultScopesFor(input.origins),
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
function listingOf(record: StoredKey, workspace: Workspace): KeyListing {
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
function successorOf(old: StoredKey): Omit<NewKey, "workspace"> {
  return { name: old.name, scopes: old.scopes as Scope[], rateLimitPerMinute: old.rateLimitPerMinute, expiresAt: old.expiresAt, origins: old.origins };
}

/** What a roll writes on the old key: revoked at once (grace 0), else expiring when the grace ends, an earlier expiry kept. */
function rollEnd(old: StoredKey, graceMs: number, now: number): { revokedAt: number } | { expiresAt: number } {
  if (graceMs === 0) return { revokedAt: now };
  const end = now + graceMs;
  return { expiresAt: old.expiresAt === null ? end : Math.min(old.expiresAt, end) };
}

/** A candidate workspace row for ensureWorkspace (kept only if the name is new). */
function newWorkspace(name: string, now: number): Workspace {
  return { id: `ws_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`, name, createdAt: now };
}

/** The api_keys columns the predicates below read. */
type KeyColumns = { revokedAt: Column; expiresAt: Column; replacedBy: Column };

/** A key that still works at `now`: not revoked, not expired. */
function live(keys: KeyColumns, now: number) {
  return and(isNull(keys.revokedAt), or(isNull(keys.expiresAt), gt(keys.expiresAt, now)));
}

/** A live key that no roll has replaced yet: the only kind a roll may replace. */
function rollable(keys: KeyColumns, now: number) {
  return and(live(keys, now), isNull(keys.replacedBy));
}

/** What a listing shows of a key: every column but the hash. */
function listedColumns(keys: Tables["apiKeys"]) {
  const { hash: _hash, ...columns } = getTableColumns(keys);
  return columns;
}

/** Keys as listed, with their workspace's name: a query to narrow and order. */
function listing(db: Db, { apiKeys, workspaces }: Tables) {
  return db
    .select({ ...listedColumns(apiKeys), workspaceName: workspaces.name })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .$dynamic();
}

/**
 * Locks the workspace's row until the write commits (Executor.forUpdate), so key writes in one
 * workspace take turns, from any process or instance: a count under the maximum stays true
 * until the insert.
 */
function* lockWorkspace(x: Executor, db: Db, { workspaces }: Tables, workspaceId: string): Op<void> {
  yield* run(x.forUpdate(db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId))));
}

/** The workspace's live keys: neither revoked nor expired (keys in a roll's grace are live). */
function* liveCount(db: Db, { apiKeys }: Tables, workspaceId: string, now: number): Op<number> {
  const counted = yield* row(db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), live(apiKeys, now))));
  return counted?.n ?? 0;
}

/**
 * The workspace of the candidate's name, made if it does not exist yet. Insert-or-nothing, then
 * read: two processes (say two `keys create` for a new workspace) may race here, and a check
 * followed by an insert let the second one fail on the unique name.
 */
function* ensureWorkspaceOp(db: Db, { workspaces }: Tables, candidate: Workspace): Op<Workspace> {
  yield* run(db.insert(workspaces).values(candidate).onConflictDoNothing({ target: workspaces.name }));
  return (yield* row(db.select().from(workspaces).where(eq(workspaces.name, candidate.name)))) ?? candidate;
}

/**
 * keys_version as this process knows it: the key cache holds for one version. Triggers move it
 * on every change admission depends on (not on lastUsedAt), made by any process or instance.
 */
export interface KeysVersion {
  /** The version now, from memory: admission cannot wait on the database per request. */
  current(): number;
  /** After this process's own write: makes its very next request see the change. */
  refresh(): Awaitable<unknown>;
}

/** Told when the lastUsedAt write fails (a read must not fail for bookkeeping). */
type Bookkeeping = Pick<StorageHealth, "bookkeepingFailed">;

/**
 * What SQLite does its own way on admission's path, both for speed. keys_version is the meta
 * row read again only when the WAL shows a commit (MetaCounter: no query per request), and this
 * process's own write just makes it forget the value. A cache miss is a prepared statement:
 * measured in process (issue 26), 1.3 µs a lookup against 89 µs when drizzle's select is built
 * each time, and a flood of unknown keys is nothing but misses. PostgreSQL needs neither: its
 * version is announced (PgVersionWatch), and a miss costs a round trip whatever the build.
 */
function sqliteHotPath(x: SqliteExecutor): { version: KeysVersion; lookUp: (hash: string) => StoredKey | undefined } {
  const counter = new MetaCounter(x.db, "keys_version");
  const { apiKeys } = x.t;
  const byHash = x.db.select().from(apiKeys).where(eq(apiKeys.hash, sql.placeholder("hash"))).prepare();
  return {
    version: { current: () => counter.current(), refresh: () => counter.invalidate() },
    lookUp: (hash) => byHash.get({ hash }),
  };
}

/**
 * API keys and the workspaces they belong to, over SQLite or PostgreSQL (src/storage/executor.ts).
 * Only SHA-256 hashes of keys are stored.
 *
 * Admission reads keys from a cache that holds while keys_version has not moved (KeysVersion): a
 * hit answers synchronously, the value itself; a miss asks the database (at once with SQLite, a
 * promise with PostgreSQL). After its own writes the store refreshes the version before
 * answering, so this process's very next request sees the change. Other processes see it at
 * their next request (SQLite: the WAL shows the commit); other instances when PostgreSQL
 * announces it (NOTIFY at commit) or, if that is lost, at their next poll (a second).
 */
export class KeyStore {
  private readonly cache = new VersionedCache<StoredKey | null>("api-keys", KEY_CACHE_LIMITS);
  private readonly version: KeysVersion;
  /** The key with this hash, from the database (a cache miss). */
  private readonly lookUp: (hash: string) => Awaitable<StoredKey | undefined>;
  /** When this process last wrote each key's lastUsedAt: the read path skips the UPDATE in between. */
  private readonly lastUseWritten = new Map<string, number>();
  /** Claims an idempotency key in a key creation's write (createBounded). */
  private readonly claims: KeyClaims;

  /** Over SQLite: keys_version and the cache miss's lookup are SQLite's own (sqliteHotPath). */
  constructor(x: SqliteExecutor, storage?: Bookkeeping);
  /** Over PostgreSQL: keys_version is the caller's watch (PgVersionWatch; createPgStores starts it). */
  constructor(x: Executor, storage: Bookkeeping | undefined, version: KeysVersion);
  constructor(
    private readonly x: Executor,
    private readonly storage?: Bookkeeping,
    version?: KeysVersion,
  ) {
    this.claims = new KeyClaims(x);
    if (x instanceof SqliteExecutor) {
      const sqlite = sqliteHotPath(x);
      this.version = version ?? sqlite.version;
      this.lookUp = sqlite.lookUp;
    } else if (version) {
      this.version = version;
      this.lookUp = (hash) => x.row((db, { apiKeys }) => db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1));
    } else {
      throw new TypeError("KeyStore over PostgreSQL needs keys_version's watch (PgVersionWatch)");
    }
  }

  /** Creates the key (and its workspace if new) in one write; returns the only copy of the full key. */
  async create(input: NewKey, now: number): Promise<CreatedKey> {
    const candidate = newWorkspace(input.workspace, now);
    // SQLite may run the write twice (see GroupCommit): the key made the first time is the one kept.
    let made: ReturnType<typeof newKey> | undefined;
    const created = await this.x.write(function* (db, t): Op<CreatedKey> {
      const workspace = yield* ensureWorkspaceOp(db, t, candidate);
      made ??= newKey(workspace, input, now);
      yield* run(db.insert(t.apiKeys).values(made.record));
      return { key: made.key, record: listingOf(made.record, workspace) };
    });
    await this.changed();
    return created;
  }

  /**
   * Creates a key unless the workspace already has `maxLive` live keys (revoked and expired ones
   * do not count, keys in a roll's grace do). Count and insert are one write under the
   * workspace's lock (lockWorkspace): a second process or instance (the CLI, another request)
   * cannot slip a key in between.
   */
  createBounded(workspace: Workspace, input: Omit<NewKey, "workspace">, now: number, maxLive: number): Promise<CreatedKey | KeyWriteRefusal>;
  createBounded(
    workspace: Workspace,
    input: Omit<NewKey, "workspace">,
    now: number,
    maxLive: number,
    recordOf: ((created: CreatedKey) => IdempotencyRecord) | undefined,
  ): Promise<CreatedKey | KeyWriteRefusal | { held: IdempotencyRecord }>;
  async createBounded(
    workspace: Workspace,
    input: Omit<NewKey, "workspace">,
    now: number,
    maxLive: number,
    /** With an idempotency key: its record, answering this key; the key is made only if the record claims it (see KeyClaims). */
    recordOf?: (created: CreatedKey) => IdempotencyRecord,
  ): Promise<CreatedKey | KeyWriteRefusal | { held: IdempotencyRecord }> {
    const { x, claims } = this;
    const made = await x.write(function* (db, t): Op<CreatedKey | KeyWriteRefusal | { held: IdempotencyRecord }> {
      yield* lockWorkspace(x, db, t, workspace.id);
      // The limit before the claim: a refusal must leave no record behind (it would answer a key never made).
      const live = yield* liveCount(db, t, workspace.id, now);
      if (live >= maxLive) return { refused: "workspace-full", live };
      const fresh = newKey(workspace, input, now);
      const created = { key: fresh.key, record: listingOf(fresh.record, workspace) };
      const held = recordOf ? yield* claims.claim(db, recordOf(created)) : undefined;
      if (held) return { held };
      yield* run(db.insert(t.apiKeys).values(fresh.record));
      return created;
    });
    if ("key" in made) await this.changed();
    return made;
  }

  /**
   * Replaces a live key with a new one of its settings, at most once: the old key is marked
   * replaced_by in the same write as the successor's insert (under the workspace's lock), by an
   * UPDATE that matches only a live key not rolled yet. Of concurrent rolls exactly one makes a
   * successor. A roll with a grace adds a live key for its length, so it needs room under
   * `maxLive`; grace 0 replaces one live key with another and always fits.
   */
  async roll(id: string, workspace: Workspace, graceMs: number, now: number, maxLive: number): Promise<RolledKey | KeyWriteRefusal> {
    // PostgreSQL refuses a NUL in a query's text, and no id holds one: not asked (SQLite would find nothing either).
    if (!storable(id)) return { refused: "not-rollable" };
    const x = this.x;
    const rolled = await x.write(function* (db, t): Op<RolledKey | KeyWriteRefusal> {
      const { apiKeys } = t;
      yield* lockWorkspace(x, db, t, workspace.id);
      const old = yield* row(db.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspace.id))));
      if (!old) return { refused: "not-rollable" };
      if (graceMs > 0) {
        const live = yield* liveCount(db, t, workspace.id, now);
        if (live >= maxLive) return { refused: "workspace-full", live };
      }
      const fresh = newKey(workspace, successorOf(old), now);
      const [previous] = yield* rows(
        db
          .update(apiKeys)
          .set({ replacedBy: fresh.record.id, ...rollEnd(old, graceMs, now) })
          .where(and(eq(apiKeys.id, id), rollable(apiKeys, now)))
          .returning(listedColumns(apiKeys)),
      );
      if (!previous) return { refused: "not-rollable" };
      yield* run(db.insert(apiKeys).values(fresh.record));
      return { key: fresh.key, record: listingOf(fresh.record, workspace), previous: { ...previous, workspaceName: workspace.name } };
    });
    if ("key" in rolled) await this.changed();
    return rolled;
  }

  /**
   * The key with this hash: from the cache while keys_version has not moved (synchronously, the
   * value itself), else from the database (SQLite at once, PostgreSQL a promise). Unknown hashes
   * are kept too (as null). The version is read before the query: a change racing the lookup is
   * seen next turn.
   */
  findByHash(hash: string): StoredKey | undefined | Promise<StoredKey | undefined> {
    const version = this.version.current();
    const hit = this.cache.lookup(hash, version);
    if (hit !== undefined) return hit ?? undefined;
    const found = this.lookUp(hash);
    if (found instanceof Promise) return found.then((key) => this.remember(hash, version, key));
    return this.remember(hash, version, found);
  }

  private remember(hash: string, version: number, key: StoredKey | undefined): StoredKey | undefined {
    this.cache.store(hash, version, key ?? null);
    return key;
  }

  /** The key cache's size against its caps (for /metrics and the memory-bounds test). */
  caches() {
    return [this.cache];
  }

  /**
   * Writes lastUsedAt when this process has not written it for the key within the precision,
   * in the background (SQLite: the next write batch): the request does not wait for it. It is
   * bookkeeping: when the write fails (disk full, read-only file, PostgreSQL out of reach) the
   * request has gone on, and the failure is reported, never thrown; when another process held
   * SQLite's lock too long, the next use tries again.
   */
  recordUse(id: string, now: number): void {
    const written = this.lastUseWritten.get(id);
    if (written !== undefined && now - written < LAST_USED_PRECISION_MS) return;
    this.lastUseWritten.set(id, now);
    const staleBefore = now - LAST_USED_PRECISION_MS;
    this.x
      .apply((db, { apiKeys }) =>
        db
          .update(apiKeys)
          .set({ lastUsedAt: now })
          .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore)))),
      )
      .catch((error: unknown) => {
        if (isBusyLock(error) && this.lastUseWritten.get(id) === now) this.lastUseWritten.delete(id);
        this.storage?.bookkeepingFailed(error, "lastUsedAt");
      });
  }

  /**
   * Changes a live key's name, origins or rate limit in place (the secret stays), and answers it
   * as it is now; undefined when no live key of the workspace has this id (revoked, expired,
   * another workspace's). keys_version moves (its trigger), so admission sees the change at once.
   */
  async update(id: string, workspaceId: string, change: KeyChange, now: number): Promise<KeyListing | undefined> {
    if (!storable(id)) return undefined; // as in roll
    const updated = await this.x.write(function* (db, t): Op<KeyListing | undefined> {
      const { apiKeys } = t;
      const [changed] = yield* rows(
        db
          .update(apiKeys)
          .set(change)
          .where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId), live(apiKeys, now)))
          .returning({ id: apiKeys.id }),
      );
      if (!changed) return undefined;
      return yield* row(listing(db, t).where(eq(apiKeys.id, id)));
    });
    if (updated) await this.changed();
    return updated;
  }

  /** Every key, oldest first, without hashes. */
  list(): Awaitable<KeyListing[]> {
    return this.x.rows((db, t) => listing(db, t).orderBy(asc(t.apiKeys.createdAt), asc(t.apiKeys.id)));
  }

  /** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string, now: number): Promise<boolean> {
    const found = await this.x.apply((db, { apiKeys }) =>
      db
        .update(apiKeys)
        .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${now})` })
        .where(eq(apiKeys.id, id))
        .returning({ id: apiKeys.id }),
    );
    if (found.length === 0) return false;
    await this.changed();
    return true;
  }

  /** Revokes every live key with this name in the workspace (for keys the service makes itself). */
  async revokeNamed(workspaceName: string, keyName: string, now: number): Promise<void> {
    const revoked = await this.x.apply((db, { apiKeys, workspaces }) => {
      const workspace = db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.name, workspaceName));
      return db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(inArray(apiKeys.workspaceId, workspace), eq(apiKeys.name, keyName), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
    });
    if (revoked.length > 0) await this.changed();
  }

  workspaceById(id: string): Awaitable<Workspace | undefined> {
    return this.x.row((db, { workspaces }) => db.select().from(workspaces).where(eq(workspaces.id, id)));
  }

  workspaceByName(name: string): Awaitable<Workspace | undefined> {
    return this.x.row((db, { workspaces }) => db.select().from(workspaces).where(eq(workspaces.name, name)));
  }

  /** One workspace's keys, newest first, without hashes. */
  listIn(workspaceId: string): Awaitable<KeyListing[]> {
    return this.x.rows((db, t) => listing(db, t).where(eq(t.apiKeys.workspaceId, workspaceId)).orderBy(desc(t.apiKeys.createdAt), desc(t.apiKeys.id)));
  }

  /** A key of this workspace (another workspace's key is not found, like an unknown id). */
  findIn(id: string, workspaceId: string): Awaitable<KeyListing | undefined> {
    if (!storable(id)) return undefined; // as in roll
    return this.x.row((db, t) => listing(db, t).where(and(eq(t.apiKeys.id, id), eq(t.apiKeys.workspaceId, workspaceId))));
  }

  count(): Awaitable<number> {
    return this.x.read(function* (db, { apiKeys }) {
      return (yield* row(db.select({ n: count() }).from(apiKeys)))?.n ?? 0;
    });
  }

  /** The workspace of this name, made if new (ensureWorkspaceOp: race-safe). */
  ensureWorkspace(name: string, now: number): Promise<Workspace> {
    const candidate = newWorkspace(name, now);
    return this.x.write((db, t) => ensureWorkspaceOp(db, t, candidate));
  }

  /**
   * After a write of this process: keys_version as the database has it now, so the next request
   * here is admitted against the change. The write is committed either way: if the version
   * cannot be read (PostgreSQL out of reach), the cache is dropped instead of failing an
   * acknowledged write.
   */
  private async changed(): Promise<void> {
    try {
      await this.version.refresh();
    } catch {
      this.cache.clear();
    }
  }
}
