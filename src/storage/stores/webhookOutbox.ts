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
 * Writes events to the outbox inside a store's write (LeadStore, QuoteStore): for every enabled
 * endpoint of the event's workspace that wants its type, nothing when none does, so a workspace
 * without webhooks pays one indexed read per lead or quote. That read is the one place the
 * dialects differ: SQLite runs it as a statement prepared once (about 2 µs, where drizzle's build
 * cost a lead 50 µs: the lead POST must stay cheap), PostgreSQL as the executor's query.
 */
export class WebhookOutbox {
  private readonly subscribersOf: ((workspaceId: string) => Subscriber[]) | undefined;

  constructor(x: Executor) {
    if (x instanceof SqliteExecutor) {
      const statement = x.db.$client.prepare<{ id: string; events: string }, [string]>(
        "SELECT id, events FROM webhook_endpoints WHERE workspace_id = ? AND disabled_at IS NULL",
      );
      this.subscribersOf = (workspaceId) => statement.all(workspaceId).map((e) => ({ id: e.id, events: JSON.parse(e.events) as string[] }));
    }
  }

  /** Queues the event for the endpoints that want it, inside the caller's write; answers how many deliveries. */
  *write(db: Db, t: Tables, event: OutboxEvent): Op<number> {
    const endpoints = this.subscribersOf ? this.subscribersOf(event.workspaceId) : yield* subscribers(db, t, event.workspaceId);
    return yield* enqueueEvent(db, t, event, wantedBy(endpoints, event.type));
  }

  /** The same, for a write already running on SQLite's connection (QuoteStore's prepared insert). */
  writeNow(x: SqliteExecutor, event: OutboxEvent): number {
    const wanted = wantedBy(this.subscribersOf!(event.workspaceId), event.type);
    return wanted.length === 0 ? 0 : x.runInWrite((db, t) => enqueueEvent(db, t, event, wanted));
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
