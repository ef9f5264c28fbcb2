import { and, eq, isNull } from "drizzle-orm";
import { rows, run, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { SqliteExecutor } from "../sqlite/sqliteExecutor.ts";

/**
 * An event of a workspace, as the outbox stores it (issue 28): built by the procedure that made
 * the lead or quote (its `data` is the REST shape of the resource), written by the store in the
 * same transaction as that lead or quote, sent later by the deliverer (src/ops/webhooks/).
 */
export interface OutboxEvent {
  /** `msg_…`: the `webhook-id` of every attempt to send it. */
  id: string;
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}

/** A fresh event id: time-ordered (UUIDv7) like quote ids, so the outbox's rows are appended. */
export function newEventId(now: number): string {
  return `msg_${Bun.randomUUIDv7("hex", now).replaceAll("-", "")}`;
}

/** An endpoint as the outbox needs it: its id and the events it wants. */
interface Subscriber {
  id: string;
  events: readonly string[];
}

/**
 * Writes events to the outbox inside a store's write (LeadStore, QuoteStore), for the enabled
 * endpoints of the event's workspace that want its type; nothing when none does, so a workspace
 * without webhooks pays one indexed read per lead or quote. This is where the dialects differ:
 * - SQLite writes the event alone, with the ids of the endpoints that want it, through statements
 *   prepared once (SqliteOutbox): the deliveries are made later by the deliverer, a batch of events
 *   at a time (WebhookFanout). A lead POST then writes one row more, not two: with the deliveries
 *   (a row and two indexes more) in its transaction the outbox cost 18 % of lead throughput in
 *   the bench's turns, without them 6–9 % (issue 28: under 15 %).
 * - PostgreSQL writes the event and its deliveries together through the executor's queries
 *   (enqueueEvent, which test/http/webhooks runs on both dialects through the test event): it has
 *   no commit order to fan out by (see WebhookFanout), and a statement's round trip, not its rows,
 *   is what a write costs there.
 */
export class WebhookOutbox {
  private readonly sqlite: SqliteOutbox | undefined;

  constructor(x: Executor) {
    this.sqlite = x instanceof SqliteExecutor ? new SqliteOutbox(x) : undefined;
  }

  /** Queues the event for the endpoints that want it, inside the caller's write; answers how many deliveries. */
  *write(db: Db, t: Tables, event: OutboxEvent): Op<number> {
    if (this.sqlite) return this.sqlite.write(event);
    return yield* enqueueEvent(db, t, event, wantedBy(yield* subscribers(db, t, event.workspaceId), event.type));
  }

  /** The same, for a write already running on SQLite's connection (QuoteStore's prepared insert). */
  writeNow(event: OutboxEvent): number {
    return this.sqlite!.write(event);
  }
}

/** SQLite's outbox statements, run synchronously inside the caller's group-commit write. */
class SqliteOutbox {
  private readonly endpointsOf;
  private readonly insertEvent;

  constructor(x: SqliteExecutor) {
    const client = x.db.$client;
    this.endpointsOf = client.prepare<{ id: string; events: string }, [string]>(
      "SELECT id, events FROM webhook_endpoints WHERE workspace_id = ? AND disabled_at IS NULL",
    );
    this.insertEvent = client.prepare<never, [string, string, string, string, number, string]>(
      "INSERT INTO webhook_events (id, workspace_id, type, data, created_at, endpoint_ids) VALUES (?, ?, ?, ?, ?, ?)",
    );
  }

  /** The event and the endpoints that want it (data and endpoint_ids as drizzle's JSON mode writes them); WebhookFanout makes the deliveries. */
  write(event: OutboxEvent): number {
    const endpoints = this.endpointsOf.all(event.workspaceId).map((e) => ({ id: e.id, events: JSON.parse(e.events) as string[] }));
    const wanted = wantedBy(endpoints, event.type);
    if (wanted.length === 0) return 0;
    this.insertEvent.run(event.id, event.workspaceId, event.type, JSON.stringify(event.data), event.createdAt, JSON.stringify(wanted));
    return wanted.length;
  }
}

/** The workspace's enabled endpoints, through the executor (PostgreSQL's way). */
function* subscribers(db: Db, { webhookEndpoints: e }: Tables, workspaceId: string): Op<Subscriber[]> {
  return yield* rows(db.select({ id: e.id, events: e.events }).from(e).where(and(eq(e.workspaceId, workspaceId), isNull(e.disabledAt))));
}

/** The ids of the endpoints subscribed to the type. */
function wantedBy(endpoints: readonly Subscriber[], type: string): string[] {
  return endpoints.filter((e) => e.events.includes(type)).map((e) => e.id);
}

/** Writes the event and one pending delivery per endpoint, due at once; nothing for no endpoint. */
export function* enqueueEvent(db: Db, t: Tables, event: OutboxEvent, endpointIds: readonly string[]): Op<number> {
  if (endpointIds.length === 0) return 0;
  yield* run(db.insert(t.webhookEvents).values(event));
  yield* run(
    db.insert(t.webhookDeliveries).values(
      endpointIds.map((endpointId) => ({
        eventId: event.id,
        endpointId,
        workspaceId: event.workspaceId,
        status: "pending",
        attempts: 0,
        nextAttemptAt: event.createdAt,
        createdAt: event.createdAt,
      })),
    ),
  );
  return endpointIds.length;
}
