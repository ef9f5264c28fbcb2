import type { Executor, Op } from "../executor.ts";
import { SqliteExecutor } from "../sqlite/sqliteExecutor.ts";

/** Events one fan-out takes at most: one transaction of a few milliseconds. */
export const FANOUT_BATCH = 500;

/** The deliveries the outbox's waiting events will make, as /metrics counts its backlog. */
export interface FanoutBacklog {
  deliveries: number;
  /** When the oldest waiting event was written (ms since the epoch), or null when none waits. */
  oldestAt: number | null;
}

interface WaitingEvent {
  seq: number;
  id: string;
  workspaceId: string;
  endpointIds: string | null;
  createdAt: number;
}

/**
 * Turns the events SQLite's outbox holds (written by a lead's or quote's transaction with the
 * ids of the endpoints that wanted them: webhookOutbox.ts) into one pending delivery per
 * endpoint, in batches, from the deliverer (src/ops/webhooks/webhookDeliverer.ts). Where it has
 * got to is meta's `webhook_fanout`: the rowid of the last event it took, moved in the same
 * transaction as the deliveries it made, so after a crash the next run takes up exactly where the
 * last commit left off (never an event twice, never one skipped). A rowid cursor is safe because
 * SQLite's writers take turns: an event with a lower rowid was committed before one with a higher
 * one. An endpoint deleted meanwhile gets nothing, and an event left with no endpoint is deleted.
 *
 * PostgreSQL has no such order (transactions commit in any order of their sequence numbers), so
 * its events are written with their deliveries and there is nothing to fan out.
 *
 * @example
 * const fanout = new WebhookFanout(x);
 * while ((await fanout.run()) === FANOUT_BATCH); // every waiting event has its deliveries
 */
export class WebhookFanout {
  private readonly sqlite: SqliteFanout | undefined;

  constructor(x: Executor) {
    this.sqlite = x instanceof SqliteExecutor ? new SqliteFanout(x) : undefined;
  }

  /** Makes the deliveries of up to `limit` waiting events; answers how many events it took. */
  run(limit = FANOUT_BATCH): Promise<number> {
    return this.sqlite?.run(limit) ?? Promise.resolve(0);
  }

  /** The waiting events' deliveries, counting at most `cap` events; none with PostgreSQL. */
  backlog(cap: number): FanoutBacklog {
    return this.sqlite?.backlog(cap) ?? { deliveries: 0, oldestAt: null };
  }
}

class SqliteFanout {
  private readonly cursor;
  private readonly moveCursor;
  private readonly waiting;
  private readonly existing;
  private readonly insertDelivery;
  private readonly deleteEvent;
  private readonly waitingCount;
  private readonly anyWaiting;

  constructor(private readonly x: SqliteExecutor) {
    const client = x.db.$client;
    this.cursor = client.prepare<{ value: number }, []>("SELECT value FROM meta WHERE key = 'webhook_fanout'");
    this.moveCursor = client.prepare<never, [number]>("UPDATE meta SET value = ? WHERE key = 'webhook_fanout'");
    this.waiting = client.prepare<WaitingEvent, [number, number]>(
      "SELECT rowid AS seq, id, workspace_id AS workspaceId, endpoint_ids AS endpointIds, created_at AS createdAt FROM webhook_events WHERE rowid > ? ORDER BY rowid LIMIT ?",
    );
    this.existing = client.prepare<{ id: string }, [string]>("SELECT id FROM webhook_endpoints WHERE id IN (SELECT value FROM json_each(?))");
    this.insertDelivery = client.prepare<never, [string, string, string, number, number]>(
      "INSERT INTO webhook_deliveries (event_id, endpoint_id, workspace_id, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)",
    );
    this.anyWaiting = client.prepare<{ one: number }, [number]>("SELECT 1 AS one FROM webhook_events WHERE rowid > ? LIMIT 1");
    this.deleteEvent = client.prepare<never, [string]>("DELETE FROM webhook_events WHERE id = ?");
    this.waitingCount = client.prepare<{ deliveries: number | null; oldestAt: number | null }, [number, number]>(
      "SELECT sum(json_array_length(endpoint_ids)) AS deliveries, min(created_at) AS oldestAt FROM (SELECT endpoint_ids, created_at FROM webhook_events WHERE rowid > ? AND endpoint_ids IS NOT NULL ORDER BY rowid LIMIT ?)",
    );
  }

  run(limit: number): Promise<number> {
    // Read first, so an idle deliverer writes nothing; then a group-commit write (it may run
    // twice: see GroupCommit), made of statements only, that reads the cursor again under the lock.
    if (!this.anyWaiting.get(this.after())) return Promise.resolve(0);
    return this.x.write((): Op<number> => this.fanOutNow(limit));
  }

  backlog(cap: number): FanoutBacklog {
    const found = this.waitingCount.get(this.after(), cap);
    return { deliveries: Number(found?.deliveries ?? 0), oldestAt: found?.oldestAt == null ? null : Number(found.oldestAt) };
  }

  private after(): number {
    // Absent only if the migration that adds it has not run, which opening the database prevents.
    return this.cursor.get()?.value ?? 0;
  }

  // A generator without a yield: the executor's write runs it to its end inside the transaction.
  private *fanOutNow(limit: number): Op<number> {
    const events = this.waiting.all(this.after(), limit);
    if (events.length === 0) return 0;
    const wanted = events.map((e) => (e.endpointIds === null ? null : (JSON.parse(e.endpointIds) as string[])));
    const named = [...new Set(wanted.flatMap((ids) => ids ?? []))];
    const existing = new Set(this.existing.all(JSON.stringify(named)).map((e) => e.id));
    events.forEach((event, i) => {
      const ids = wanted[i];
      // Null: written with its deliveries (a test event), nothing to make.
      if (!ids) return;
      const kept = ids.filter((id) => existing.has(id));
      if (kept.length === 0) this.deleteEvent.run(event.id);
      for (const endpointId of kept) this.insertDelivery.run(event.id, endpointId, event.workspaceId, event.createdAt, event.createdAt);
    });
    this.moveCursor.run(events.at(-1)!.seq);
    return events.length;
  }
}
