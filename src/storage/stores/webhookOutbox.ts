import { and, eq, isNull } from "drizzle-orm";
import { rows, run, type Db, type Op, type Tables } from "../executor.ts";

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

/**
 * Adds the event to the outbox for every enabled endpoint of its workspace that wants its type,
 * inside the caller's write: nothing is written when none does, so a workspace without webhooks
 * pays one indexed read per lead or quote. Answers how many deliveries were queued.
 */
export function* writeToOutbox(db: Db, t: Tables, event: OutboxEvent): Op<number> {
  const { webhookEndpoints } = t;
  const endpoints = yield* rows(
    db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, event.workspaceId), isNull(webhookEndpoints.disabledAt))),
  );
  return yield* enqueueEvent(db, t, event, wantedBy(endpoints, event.type));
}

/** The ids of the endpoints subscribed to the type. */
export function wantedBy(endpoints: readonly { id: string; events: readonly string[] }[], type: string): string[] {
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
