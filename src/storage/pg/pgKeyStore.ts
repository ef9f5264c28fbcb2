import { and, asc, desc, eq, getTableColumns, isNull, lt, or, sql } from "drizzle-orm";
import { apiKeys, workspaces } from "../../../db/schema.pg.ts";
import {
  KEY_CACHE_LIMITS,
  LAST_USED_PRECISION_MS,
  listingOf,
  live,
  newKey,
  newWorkspace,
  rollable,
  rollEnd,
  successorOf,
  type CreatedKey,
  type KeyListing,
  type KeyWriteRefusal,
  type RolledKey,
  type KeyStore,
  type NewKey,
  type StoredKey,
  type Workspace,
} from "../stores/keyStore.ts";
import type { KeyStorePort } from "../ports.ts";
import type { StorageHealth } from "../sqlite/storageHealth.ts";
import { VersionedCache } from "../versionedCache.ts";
import { storable, type PgDb } from "./pgDatabase.ts";

type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];
import type { PgVersionWatch } from "./versionWatch.ts";

/** Locks the workspace's row (concurrent key writes in it wait their turn) and counts its live keys. */
async function lockAndCountLive(tx: PgTx, workspaceId: string, now: number): Promise<number> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
  const [row] = await tx.select({ n: sql<number>`count(*)::integer` }).from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), live(apiKeys, now)));
  return row?.n ?? 0;
}

/** What a listing shows of a key: every column but the hash. */
const { hash: _hash, ...LISTED_COLUMNS } = getTableColumns(apiKeys);

/**
 * KeyStore over PostgreSQL (see src/storage/stores/keyStore.ts for the behaviour, kept identical).
 * Admission reads keys from a cache keyed on keys_version as this process knows it
 * (PgVersionWatch): a hit answers synchronously, with no round trip; a miss asks PostgreSQL.
 * After its own writes the store re-reads the version before answering, so this instance's very
 * next request sees the change; other instances see it when PostgreSQL announces it (NOTIFY at
 * commit) or, if that is lost, at their next poll (a second).
 */
export class PgKeyStore implements KeyStorePort {
  private readonly cache = new VersionedCache<StoredKey | null>("api-keys", KEY_CACHE_LIMITS);
  /** When this process last wrote each key's lastUsedAt: the read path skips the UPDATE in between. */
  private readonly lastUseWritten = new Map<string, number>();

  constructor(
    private readonly pg: PgDb,
    /** keys_version, started by the caller (createPgStores). */
    private readonly version: PgVersionWatch,
    /** Told when the lastUsedAt write fails (a read must not fail for bookkeeping). */
    private readonly storage?: Pick<StorageHealth, "bookkeepingFailed">,
  ) {}

  async create(input: NewKey, now: number): Promise<{ key: string; record: KeyListing }> {
    return this.createIn(await this.ensureWorkspace(input.workspace, now), input, now);
  }

  private async createIn(workspace: Workspace, input: Omit<NewKey, "workspace">, now: number): Promise<{ key: string; record: KeyListing }> {
    const made = newKey(workspace, input, now);
    await this.pg.insert(apiKeys).values(made.record);
    await this.changed();
    return { key: made.key, record: listingOf(made.record, workspace) };
  }

  /**
   * Creates a key unless the workspace already has `maxLive` live keys. The workspace's row is
   * locked first (FOR UPDATE), so concurrent creations in one workspace, on any instance, count
   * and insert one after the other.
   */
  async createBounded(workspace: Workspace, input: Omit<NewKey, "workspace">, now: number, maxLive: number): Promise<CreatedKey | KeyWriteRefusal> {
    const made = await this.pg.transaction(async (tx): Promise<CreatedKey | KeyWriteRefusal> => {
      const live = await lockAndCountLive(tx, workspace.id, now);
      if (live >= maxLive) return { refused: "workspace-full", live };
      const fresh = newKey(workspace, input, now);
      await tx.insert(apiKeys).values(fresh.record);
      return { key: fresh.key, record: listingOf(fresh.record, workspace) };
    });
    if ("key" in made) await this.changed();
    return made;
  }

  /**
   * Replaces a live key with a new one of its settings, at most once (see KeyStore.roll): the
   * conditional UPDATE that marks the old key replaced and the successor's insert are one
   * transaction, under the workspace's row lock, so concurrent rolls make exactly one successor.
   */
  async roll(id: string, workspace: Workspace, graceMs: number, now: number, maxLive: number): Promise<RolledKey | KeyWriteRefusal> {
    if (!storable(id)) return { refused: "not-rollable" };
    const rolled = await this.pg.transaction(async (tx): Promise<RolledKey | KeyWriteRefusal> => {
      const live = await lockAndCountLive(tx, workspace.id, now);
      const [old] = await tx.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspace.id)));
      if (!old) return { refused: "not-rollable" };
      if (graceMs > 0 && live >= maxLive) return { refused: "workspace-full", live };
      const fresh = newKey(workspace, successorOf(old), now);
      const marked = await tx
        .update(apiKeys)
        .set({ replacedBy: fresh.record.id, ...rollEnd(old, graceMs, now) })
        .where(and(eq(apiKeys.id, id), rollable(apiKeys, now)))
        .returning(LISTED_COLUMNS);
      const previous = marked[0];
      if (!previous) return { refused: "not-rollable" };
      await tx.insert(apiKeys).values(fresh.record);
      return { key: fresh.key, record: listingOf(fresh.record, workspace), previous: { ...previous, workspaceName: workspace.name } };
    });
    if ("key" in rolled) await this.changed();
    return rolled;
  }

  /**
   * The key with this hash: from the cache while keys_version has not moved (synchronously,
   * the value itself), else from PostgreSQL (a promise). Unknown hashes are kept too (as null).
   * The version is read before the query: a change racing the lookup is seen next turn.
   */
  findByHash(hash: string): StoredKey | undefined | Promise<StoredKey | undefined> {
    const version = this.version.current();
    const hit = this.cache.lookup(hash, version);
    if (hit !== undefined) return hit ?? undefined;
    return this.pg
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, hash))
      .limit(1)
      .then(([row]) => {
        this.cache.store(hash, version, row ?? null);
        return row;
      });
  }

  caches(): ReturnType<KeyStore["caches"]> {
    return [this.cache];
  }

  /**
   * Writes lastUsedAt when this process has not written it for the key within the precision,
   * in the background: the request neither waits for it nor fails with it.
   */
  recordUse(id: string, now: number): void {
    const written = this.lastUseWritten.get(id);
    if (written !== undefined && now - written < LAST_USED_PRECISION_MS) return;
    this.lastUseWritten.set(id, now);
    this.pg
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_PRECISION_MS))))
      .then(
        () => {},
        (error: unknown) => this.storage?.bookkeepingFailed(error, "lastUsedAt"),
      );
  }

  list(): Promise<KeyListing[]> {
    return this.listing().orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  }

  private listing() {
    return this.pg
      .select({ ...LISTED_COLUMNS, workspaceName: workspaces.name })
      .from(apiKeys)
      .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
      .$dynamic();
  }

  /** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string, now: number): Promise<boolean> {
    const found = await this.pg
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${now})` })
      .where(eq(apiKeys.id, id))
      .returning({ id: apiKeys.id });
    if (found.length === 0) return false;
    await this.changed();
    return true;
  }

  /** Revokes every live key with this name in the workspace (for keys the service makes itself). */
  async revokeNamed(workspaceName: string, keyName: string, now: number): Promise<void> {
    const workspace = await this.workspaceByName(workspaceName);
    if (!workspace) return;
    await this.pg
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.workspaceId, workspace.id), eq(apiKeys.name, keyName), isNull(apiKeys.revokedAt)));
    await this.changed();
  }

  async workspaceById(id: string): Promise<Workspace | undefined> {
    const [row] = await this.pg.select().from(workspaces).where(eq(workspaces.id, id));
    return row;
  }

  async workspaceByName(name: string): Promise<Workspace | undefined> {
    const [row] = await this.pg.select().from(workspaces).where(eq(workspaces.name, name));
    return row;
  }

  /** One workspace's keys, newest first, without hashes. */
  listIn(workspaceId: string): Promise<KeyListing[]> {
    return this.listing().where(eq(apiKeys.workspaceId, workspaceId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  }

  /** A key of this workspace (another workspace's key is not found, like an unknown id). */
  async findIn(id: string, workspaceId: string): Promise<KeyListing | undefined> {
    if (!storable(id)) return undefined;
    const [row] = await this.listing().where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId)));
    return row;
  }

  async count(): Promise<number> {
    const [row] = await this.pg.select({ n: sql<number>`count(*)::integer` }).from(apiKeys);
    return row?.n ?? 0;
  }

  /** The workspace of this name, made if new: insert-or-nothing, then read (instances may race here). */
  async ensureWorkspace(name: string, now: number): Promise<Workspace> {
    const candidate = newWorkspace(name, now);
    await this.pg.insert(workspaces).values(candidate).onConflictDoNothing({ target: workspaces.name });
    return (await this.workspaceByName(name)) ?? candidate;
  }

  /**
   * After a write of this process: the version as PostgreSQL has it now, so the next request
   * here is admitted against the change. The write is committed either way: if the version
   * cannot be read, the cache is dropped instead of failing an acknowledged write.
   */
  private async changed(): Promise<void> {
    await this.version.refresh().catch(() => this.cache.clear());
  }
}
