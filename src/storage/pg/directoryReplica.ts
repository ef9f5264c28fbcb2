import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../log.ts";
import { closeDatabase, openDatabase, type DirectoryDb } from "../sqlite/database.ts";
import { migrate } from "../sqlite/migrate.ts";
import type { PgDb } from "./pgDatabase.ts";
import { JournalCursor } from "./replicaJournalCursor.ts";
import { loadWholeDirectory } from "./replicaLoad.ts";
import { inSnapshot, readBrokers, readCarriers, readJournal, readReviewsOf, type JournalEntry } from "./replicaSource.ts";
import { ReplicaSlot } from "./replicaSlot.ts";
import { readStamp, replicaOrigin, writeStamp, type ReplicaStamp } from "./replicaStamp.ts";
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
  /** Whether this start reused the file a previous instance left (then caught up from the journal). */
  reused: boolean;
}

export interface ReplicaOptions {
  log: Logger;
  /**
   * REPLICA_DIR: where replicas are kept between starts, shared by the instances of one machine
   * (see ReplicaSlot). Without it, a private temp directory removed on close (tests, one-offs).
   */
  dir?: string;
}

/**
 * This instance's copy of the published directory (brokers, offices, lines, reviews, carriers):
 * a private SQLite file with the full SQLite schema, loaded from PostgreSQL at start and kept
 * current from PostgreSQL's change journal (`directory_changes`), woken by NOTIFY and by a 1 s
 * poll (PgVersionWatch). BrokerStore and CarrierStore read `db` as they read the SQLite
 * database, synchronously. The replica is never the source of truth: losing it loses nothing.
 *
 * In REPLICA_DIR the file outlives the process (a clean stop or a crash): the next start on the
 * machine takes it over (ReplicaSlot) and, when its stamp says it is this database's, of this
 * schema, complete and not ahead of PostgreSQL (replicaStamp.ts), catches up from the journal
 * position it recorded instead of loading everything — before the first request, like a load.
 * Anything else (another database, another binary's schema, a reboot, a journal pruned past it)
 * loads it again from scratch.
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
  private reused = false;
  private savedStamp = "";
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly writer: ReplicaWriter;
  private readonly watch: PgVersionWatch;
  private readonly retry: ReturnType<typeof setInterval>;

  private constructor(
    private readonly pg: PgDb,
    readonly db: DirectoryDb,
    private readonly slot: ReplicaSlot,
    /** The temp directory to remove on close; undefined in REPLICA_DIR (the file is kept). */
    private readonly tempDir: string | undefined,
    private readonly origin: number,
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

  /**
   * Takes a slot (reusing the file in it when it may be), brings it up to PostgreSQL's state —
   * the whole directory, or the journal since the file's stamp — then follows PostgreSQL.
   */
  static async open(pg: PgDb, options: ReplicaOptions): Promise<DirectoryReplica> {
    // mkdtemp and ReplicaSlot make the directory owner-only (0700); openDatabase makes the file 0600.
    const tempDir = options.dir ? undefined : mkdtempSync(join(tmpdir(), "broker-directory-replica-"));
    const slot = ReplicaSlot.claim(options.dir ?? tempDir!);
    if (slot.removedStale > 0) options.log.info("removed replicas left by stopped instances", { count: slot.removedStale });
    let db: DirectoryDb | undefined;
    let replica: DirectoryReplica | undefined;
    try {
      const { origin, pgVersion } = await replicaOrigin(pg);
      db = openDatabase(slot.path);
      const stamp = slot.takenOver ? readStamp(db) : undefined;
      const reusable = stamp !== undefined && stamp.complete && stamp.origin === origin && stamp.journal > 0 && stamp.version <= pgVersion;
      if (slot.takenOver && !reusable) {
        // Another database, schema or boot, a half-done load, or a file ahead of PostgreSQL (restored older).
        options.log.info("directory replica left by a stopped instance not reusable: loading afresh", { stamped: stamp !== undefined });
        db.$client.close();
        slot.clear();
        db = openDatabase(slot.path);
      }
      // A copy that can be rebuilt from PostgreSQL at any time needs no durability of its own.
      db.$client.exec("PRAGMA synchronous = OFF");
      migrate(db);
      replica = new DirectoryReplica(pg, db, slot, tempDir, origin, options.log);
      if (reusable) replica.resume(stamp);
      await replica.watch.start();
      await replica.syncNow();
    } catch (error) {
      // PostgreSQL unreachable at start: nothing to serve from (the caller fails its start).
      if (replica) await replica.close();
      else {
        db?.$client.close();
        if (slot.takenOver) slot.release();
        else slot.discard();
        if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      }
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
      reused: this.reused,
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

  /**
   * Stops following and waits for a running sync; in REPLICA_DIR the file is left stamped for the
   * next start, in a temp directory it is removed with it.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.retry);
    await this.watch.stop();
    await this.running?.catch(() => {});
    if (this.tempDir) {
      this.db.$client.close();
      this.slot.discard();
      rmSync(this.tempDir, { recursive: true, force: true });
      return;
    }
    // The log is folded into the file: the next start opens one compact file.
    closeDatabase(this.db);
    this.slot.release();
  }

  /** Takes a reused file's position: the first sync follows the journal from there. */
  private resume(stamp: ReplicaStamp): void {
    this.phase = "ready";
    this.reused = true;
    this.cursor = new JournalCursor([stamp.journal]);
    this.appliedVersion = stamp.version;
    this.savedStamp = JSON.stringify(stamp);
  }

  /** Records where the replica is, so a later start may reuse it (only when that moved). */
  private saveStamp(complete: boolean): void {
    const stamp: ReplicaStamp = { origin: this.origin, version: this.appliedVersion, journal: this.cursor.readFrom(), complete };
    const text = JSON.stringify(stamp);
    if (text === this.savedStamp) return;
    writeStamp(this.db, stamp);
    this.savedStamp = text;
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
      const resumedFrom = this.reused && this.lastSyncAt === 0 ? this.cursor.readFrom() : undefined;
      if (this.phase === "loading") await this.reload();
      else await this.follow();
      await this.syncCarriers();
      this.appliedVersion = Math.max(this.appliedVersion, version);
      if (!this.closed) this.saveStamp(true);
      if (resumedFrom !== undefined && this.reused) {
        this.log.info("directory replica reused: caught up from the journal", { fromSeq: resumedFrom, toSeq: this.cursor.latest(), ms: Math.round(performance.now() - started) });
      }
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
    // Until it ends, the file is a mix no later start may reuse.
    this.saveStamp(false);
    this.reused = false;
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
