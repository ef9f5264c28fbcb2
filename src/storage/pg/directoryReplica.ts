import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../log.ts";
import { openDatabase, type DirectoryDb } from "../database.ts";
import { migrate } from "../migrate.ts";
import type { PgDb } from "./pgDatabase.ts";
import { JournalCursor } from "./replicaJournalCursor.ts";
import { loadWholeDirectory } from "./replicaLoad.ts";
import { inSnapshot, readBrokers, readCarriers, readJournal, readReviewsOf, type JournalEntry } from "./replicaSource.ts";
import { ReplicaWriter } from "./replicaWriter.ts";
import { PgVersionWatch } from "./versionWatch.ts";

/** Brokers re-read per PostgreSQL query and written per SQLite transaction when following changes. */
const BROKERS_PER_STEP = 500;
/** How often a sync that failed (PostgreSQL unreachable) or fell behind is tried again. */
const RETRY_MS = 1_000;

export type ReplicaPhase = "loading" | "ready" | "reloading";

/** How far behind PostgreSQL the replica is, for /readyz and /metrics. */
export interface ReplicaLag {
  phase: ReplicaPhase;
  /** PostgreSQL's directory_version as last announced or polled, and the one the replica holds. */
  knownVersion: number;
  appliedVersion: number;
  /** When the last sync ended (ms since the epoch) and how long it took; 0 before the first. */
  lastSyncAt: number;
  lastSyncMs: number;
  /** Whether the last sync failed (PostgreSQL unreachable): the replica serves what it holds. */
  failing: boolean;
}

export interface ReplicaOptions {
  log: Logger;
  /** Where the private directory holding the file is made (default: the system's temp dir). */
  dir?: string;
}

/**
 * This instance's copy of the published directory (brokers, offices, lines, reviews, carriers):
 * a private SQLite file with the full SQLite schema, loaded from PostgreSQL at start and kept
 * current from PostgreSQL's change journal (`directory_changes`), woken by NOTIFY and by a 1 s
 * poll (PgVersionWatch). BrokerStore and CarrierStore read `db` as they read the SQLite
 * database, synchronously. The replica is never the source of truth: it is made in a fresh
 * private directory and removed on close; losing it loses nothing.
 *
 * @example
 * const replica = await DirectoryReplica.open(pg, { log });
 * const brokers = new BrokerStore(replica.db);
 * await replica.syncNow(); // after a write of this process, to read it at once
 * await replica.close();
 */
export class DirectoryReplica {
  private phase: ReplicaPhase = "loading";
  private cursor = new JournalCursor([]);
  private appliedVersion = 0;
  private lastSyncAt = 0;
  private lastSyncMs = 0;
  private failing = false;
  private closed = false;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly writer: ReplicaWriter;
  private readonly watch: PgVersionWatch;
  private readonly retry: ReturnType<typeof setInterval>;

  private constructor(
    private readonly pg: PgDb,
    readonly db: DirectoryDb,
    private readonly dir: string,
    private readonly log: Logger,
  ) {
    this.writer = new ReplicaWriter(db);
    this.watch = new PgVersionWatch(pg, "directory_version", log);
    this.watch.onChange(() => this.syncInBackground());
    this.retry = setInterval(() => {
      if (this.failing || this.appliedVersion < this.watch.current()) this.syncInBackground();
    }, RETRY_MS);
    this.retry.unref();
  }

  /** Makes the private file, loads the whole directory, then follows PostgreSQL. */
  static async open(pg: PgDb, options: ReplicaOptions): Promise<DirectoryReplica> {
    // mkdtemp makes the directory owner-only (0700); openDatabase makes the file 0600.
    const dir = mkdtempSync(join(options.dir ?? tmpdir(), "broker-directory-replica-"));
    let db: DirectoryDb | undefined;
    try {
      db = openDatabase(join(dir, "directory.db"));
      // A copy that can be rebuilt from PostgreSQL at any time needs no durability of its own.
      db.$client.exec("PRAGMA synchronous = OFF");
      migrate(db);
    } catch (error) {
      db?.$client.close();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    const replica = new DirectoryReplica(pg, db, dir, options.log);
    try {
      await replica.watch.start();
      await replica.syncNow();
    } catch (error) {
      // PostgreSQL unreachable at start: nothing to serve from (the caller fails its start).
      await replica.close();
      throw error;
    }
    return replica;
  }

  /** True once the first load is done (/readyz): until then the replica holds a partial directory. */
  get ready(): boolean {
    return this.phase !== "loading";
  }

  lag(): ReplicaLag {
    return {
      phase: this.phase,
      knownVersion: this.watch.current(),
      appliedVersion: this.appliedVersion,
      lastSyncAt: this.lastSyncAt,
      lastSyncMs: this.lastSyncMs,
      failing: this.failing,
    };
  }

  /**
   * Applies what PostgreSQL has that the replica does not yet (after a write of this process,
   * so its next read sees it). Syncs never overlap: a call during a sync waits for it, then for
   * one more that starts after it (so whatever was committed before the call is applied).
   */
  syncNow(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.queued ??= this.running.catch(() => {}).then(() => {
        this.queued = undefined;
        return this.syncNow();
      });
      return this.queued;
    }
    this.running = this.syncOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops following, waits for a running sync, removes the file and its directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.retry);
    await this.watch.stop();
    await this.running?.catch(() => {});
    this.db.$client.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private syncInBackground(): void {
    // Failures are logged by syncOnce and retried by the timer.
    this.syncNow().catch(() => {});
  }

  private async syncOnce(): Promise<void> {
    const started = performance.now();
    // Read before the journal: the changes read are at least those that moved it this far.
    const version = this.watch.current();
    try {
      if (this.phase === "loading") await this.reload();
      else await this.follow();
      await this.syncCarriers();
      this.appliedVersion = Math.max(this.appliedVersion, version);
      if (this.failing) this.log.info("directory replica caught up with PostgreSQL again");
      this.failing = false;
    } catch (error) {
      if (this.closed) return;
      if (!this.failing) this.log.warn("directory replica could not sync: it serves what it holds and retries", { error: error instanceof Error ? error.message : String(error) });
      this.failing = true;
      throw error;
    } finally {
      this.lastSyncAt = Date.now();
      this.lastSyncMs = Math.round(performance.now() - started);
    }
  }

  /** The whole directory again, in chunks (see replicaLoad.ts for what readers see meanwhile). */
  private async reload(): Promise<void> {
    const wasReady = this.phase !== "loading";
    if (wasReady) this.phase = "reloading";
    const started = performance.now();
    const result = await loadWholeDirectory(this.pg, this.writer, () => this.closed);
    this.cursor = new JournalCursor(result.seenSeqs);
    this.phase = "ready";
    this.log.info(wasReady ? "directory replica reloaded from PostgreSQL" : "directory replica loaded from PostgreSQL", {
      brokers: result.brokers,
      ms: Math.round(performance.now() - started),
      longestStepMs: result.longestStepMs,
    });
  }

  /**
   * Re-reads the brokers the journal names since the last sync, and replaces them. The cursor
   * moves only once they are applied: a sync that fails half-way (PostgreSQL gone) applies them
   * all again next time (re-reading a broker is harmless).
   */
  private async follow(): Promise<void> {
    const from = this.cursor.readFrom();
    const journal = await inSnapshot(this.pg, (tx) => readJournal(tx, from));
    // The journal no longer reaches back to where the replica is (pruned after 10,000 changes).
    const pruned = journal.oldest !== null && from > 0 && journal.oldest > from + 1;
    const entries = journal.entries.filter((e) => this.cursor.isNew(e.seq));
    if (pruned || entries.some((e) => e.brokerId === 0)) return this.reload();
    const { full, ratingsOnly } = splitChanges(entries);
    // Only reviews changed, for a broker the replica does not hold: it is read whole instead.
    const held = new Set(this.writer.existing([...ratingsOnly]));
    for (const id of ratingsOnly) if (!held.has(id)) full.add(id);
    for (const ids of chunks([...full], BROKERS_PER_STEP)) {
      if (this.closed) return;
      const bundle = await inSnapshot(this.pg, (tx) => readBrokers(tx, ids));
      this.writer.replaceBrokers(bundle, { ids });
    }
    for (const ids of chunks([...held], BROKERS_PER_STEP)) {
      if (this.closed) return;
      const bundle = await inSnapshot(this.pg, (tx) => readReviewsOf(tx, ids));
      // A broker gone from PostgreSQL meanwhile is replaced whole (deleted) instead.
      if (bundle.brokers.length === ids.length) this.writer.replaceReviews(bundle);
      else this.writer.replaceBrokers(await inSnapshot(this.pg, (tx) => readBrokers(tx, ids)), { ids });
    }
    this.cursor.take(journal.entries.map((e) => e.seq), Date.now());
    if (this.cursor.overflowed()) await this.reload();
  }

  /** The 30 carriers, re-read on every sync (a write only when they differ). */
  private async syncCarriers(): Promise<void> {
    const rows = await inSnapshot(this.pg, readCarriers);
    if (!this.closed) this.writer.replaceCarriers(rows);
  }
}

/** Brokers to replace whole, and those of which only reviews and ratings changed. */
function splitChanges(entries: readonly JournalEntry[]): { full: Set<number>; ratingsOnly: Set<number> } {
  const full = new Set<number>();
  for (const e of entries) if (!e.ratingsOnly) full.add(e.brokerId);
  const ratingsOnly = new Set<number>();
  for (const e of entries) if (e.ratingsOnly && !full.has(e.brokerId)) ratingsOnly.add(e.brokerId);
  return { full, ratingsOnly };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
