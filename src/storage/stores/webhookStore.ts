import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, min, sql } from "drizzle-orm";
import type { webhookDeliveries, webhookEndpoints } from "../../../db/schema.ts";
import { row, rows, run, type Awaitable, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { storable } from "../storableText.ts";
import { GONE_REASON, WORKSPACE_REASON } from "../../domain/webhooks/disabledReason.ts";
import { enqueueEvent, type OutboxEvent } from "./webhookOutbox.ts";
import { PENDING_COUNT_CAP, readOutboxGauges, withWaitingEvents, type OutboxGauges } from "./webhookOutboxGauges.ts";
import { WebhookFanout } from "./webhookFanout.ts";

export type StoredEndpoint = typeof webhookEndpoints.$inferSelect;
export type StoredDelivery = typeof webhookDeliveries.$inferSelect;

/** What a workspace may change of an endpoint (PATCH); `enabled: true` clears a disabling. */
export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** A delivery as the workspace reads it: the row and its event's type. */
export type ListedDelivery = StoredDelivery & { type: string };

/** A delivery claimed for one attempt: what to send, where, and with which secrets. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  createdAt: number;
  endpointId: string;
  workspaceId: string;
  event: { id: string; type: string; data: Record<string, unknown>; createdAt: number };
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
}

/** How one attempt went, as the deliverer records it. */
export interface AttemptRecord {
  deliveryId: number;
  endpointId: string;
  at: number;
  latencyMs: number;
  responseStatus: number | null;
  /** Why it failed, in our words; null when delivered. */
  error: string | null;
  /** At most 1 KiB of the answer's body. */
  responseBody: string | null;
  /** delivered: 2xx; gone: 410, the endpoint is disabled; retry at nextAttemptAt; failed: given up. */
  outcome: "delivered" | "gone" | "retry" | "failed";
  nextAttemptAt: number;
  /** Where a run of failures this attempt starts begins (see WebhookDeliverer.attempt). */
  failingFrom: number;
  /** An endpoint failing since this time or earlier is disabled by this failure. */
  disableIfFailingSince: number;
  /** The reason written when this failure disables it. */
  disableReason: string;
}

/** Finished deliveries one purge transaction deletes at most. */
export const WEBHOOK_PURGE_BATCH = 500;

/**
 * Webhook endpoints, the outbox and its deliveries (issue 28), over either dialect
 * (src/storage/executor.ts). Every read and change by a workspace names the workspace; the
 * deliverer's claim and record are the only operations across workspaces.
 */
export class WebhookStore {
  /** The deliverer's statements that run for every delivery, prepared (Executor.prepare). */
  private readonly hot;
  private readonly fanout: WebhookFanout;

  constructor(private readonly x: Executor) {
    this.hot = deliveryStatements(x);
    this.fanout = new WebhookFanout(x);
  }

  /**
   * Makes the deliveries of the events waiting in SQLite's outbox, up to FANOUT_BATCH of them;
   * answers how many events it took (FANOUT_BATCH: more may wait). Nothing to do with PostgreSQL.
   */
  fanOut(): Promise<number> {
    return this.fanout.run();
  }

  /** Registers the endpoint unless the workspace has `max` already (under its lock, so two at once cannot pass it). */
  async create(endpoint: StoredEndpoint, max: number): Promise<StoredEndpoint | "limit"> {
    const x = this.x;
    return x.write(function* (db, { workspaces, webhookEndpoints }): Op<StoredEndpoint | "limit"> {
      yield* run(x.forUpdate(db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, endpoint.workspaceId))));
      const counted = yield* row(db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, endpoint.workspaceId)));
      if ((counted?.n ?? 0) >= max) return "limit";
      yield* run(db.insert(webhookEndpoints).values(endpoint));
      return endpoint;
    });
  }

  list(workspaceId: string): Awaitable<StoredEndpoint[]> {
    return this.x.rows((db, { webhookEndpoints: e }) => db.select().from(e).where(eq(e.workspaceId, workspaceId)).orderBy(asc(e.createdAt), asc(e.id)));
  }

  find(id: string, workspaceId: string): Awaitable<StoredEndpoint | undefined> {
    if (!storable(id)) return undefined;
    return this.x.row((db, { webhookEndpoints: e }) => db.select().from(e).where(and(eq(e.id, id), eq(e.workspaceId, workspaceId))));
  }

  /** Applies the change; undefined when the workspace has no such endpoint. */
  async update(id: string, workspaceId: string, change: EndpointChange, now: number): Promise<StoredEndpoint | undefined> {
    if (!storable(id)) return undefined;
    const { enabled, ...fields } = change;
    const set: Partial<StoredEndpoint> = { ...fields, updatedAt: now };
    if (enabled === true) Object.assign(set, { disabledAt: null, disabledReason: null, failingSince: null });
    if (enabled === false) Object.assign(set, { disabledAt: now, disabledReason: WORKSPACE_REASON });
    const [updated] = await this.x.apply((db, { webhookEndpoints: e }) =>
      db.update(e).set(set).where(and(eq(e.id, id), eq(e.workspaceId, workspaceId))).returning(),
    );
    return updated;
  }

  /** Deletes the endpoint, its deliveries and the events no other endpoint still has; false when the workspace has no such endpoint. */
  async delete(id: string, workspaceId: string): Promise<boolean> {
    if (!storable(id)) return false;
    return this.x.write(function* (db, t) {
      const { webhookEndpoints: e, webhookDeliveries: d } = t;
      const found = yield* row(db.select({ id: e.id }).from(e).where(and(eq(e.id, id), eq(e.workspaceId, workspaceId))));
      if (!found) return false;
      const events = yield* rows(db.select({ id: d.eventId }).from(d).where(eq(d.endpointId, id)));
      yield* run(db.delete(d).where(eq(d.endpointId, id)));
      yield* deleteUnsentEvents(db, t, events.map((ev) => ev.id));
      yield* run(db.delete(e).where(eq(e.id, id)));
      return true;
    });
  }

  /**
   * Deletes up to `limit` finished deliveries (delivered or failed) created before `before`, and
   * their events once no delivery refers to them; answers how many deliveries went. The delivery
   * log is kept WEBHOOK_LOG_DAYS (src/ops/maintenance.ts runs this in batches).
   */
  async purge(before: number, limit = WEBHOOK_PURGE_BATCH): Promise<number> {
    return this.x.write(function* (db, t) {
      const { webhookDeliveries: d } = t;
      const old = yield* rows(db.select({ id: d.id, eventId: d.eventId }).from(d).where(and(inArray(d.status, ["delivered", "failed"]), lt(d.createdAt, before))).limit(limit));
      if (old.length === 0) return 0;
      yield* run(db.delete(d).where(inArray(d.id, old.map((r) => r.id))));
      yield* deleteUnsentEvents(db, t, [...new Set(old.map((r) => r.eventId))]);
      return old.length;
    });
  }

  /** A new secret; the current one keeps signing until `previousUntil` (now, for no overlap). */
  async rollSecret(id: string, workspaceId: string, secret: string, previousUntil: number, now: number): Promise<StoredEndpoint | undefined> {
    if (!storable(id)) return undefined;
    const [rolled] = await this.x.apply((db, { webhookEndpoints: e }) =>
      db
        .update(e)
        .set({ previousSecret: sql`${e.secret}`, previousSecretExpiresAt: previousUntil, secret, updatedAt: now })
        .where(and(eq(e.id, id), eq(e.workspaceId, workspaceId)))
        .returning(),
    );
    return rolled;
  }

  /** Queues an event for one endpoint (a test event, or a resend). */
  async enqueue(event: OutboxEvent, endpointId: string): Promise<void> {
    await this.x.write((db, t) => enqueueEvent(db, t, event, [endpointId]));
  }

  /**
   * Queues the delivery's event to its endpoint again, as a new delivery due now (the event, so
   * its webhook-id, is the same); undefined when the workspace's endpoint has no such delivery.
   */
  async resend(deliveryId: number, endpointId: string, workspaceId: string, now: number): Promise<ListedDelivery | undefined> {
    return this.x.write(function* (db, { webhookDeliveries: d, webhookEvents: ev }) {
      const old = yield* row(
        db
          .select({ eventId: d.eventId, type: ev.type })
          .from(d)
          .innerJoin(ev, eq(ev.id, d.eventId))
          .where(and(eq(d.id, deliveryId), eq(d.endpointId, endpointId), eq(d.workspaceId, workspaceId))),
      );
      if (!old) return undefined;
      const fresh = { eventId: old.eventId, endpointId, workspaceId, status: "pending", attempts: 0, nextAttemptAt: now, createdAt: now };
      const [made] = yield* rows(db.insert(d).values(fresh).returning());
      return made && { ...made, type: old.type };
    });
  }

  /** The endpoint's latest deliveries, newest first, with their event's type. */
  deliveries(endpointId: string, workspaceId: string, limit: number): Awaitable<ListedDelivery[]> {
    return this.x.rows((db, { webhookDeliveries: d, webhookEvents: ev }) =>
      db
        .select({ ...deliveryColumns(d), type: ev.type })
        .from(d)
        .innerJoin(ev, eq(ev.id, d.eventId))
        .where(and(eq(d.endpointId, endpointId), eq(d.workspaceId, workspaceId)))
        .orderBy(desc(d.id))
        .limit(limit),
    );
  }

  /** The outbox's backlog and disabled endpoints, for /metrics (across workspaces, like the deliverer's reads). */
  async outboxGauges(): Promise<OutboxGauges> {
    return withWaitingEvents(await readOutboxGauges(this.x), this.fanout.backlog(PENDING_COUNT_CAP));
  }

  /** When the next pending delivery to an enabled endpoint is due, or undefined: a read, so an idle deliverer writes nothing. */
  async nextDueAt(): Promise<number | undefined> {
    const found = await this.x.row((db) => this.hot.nextDue.bind(db, {}));
    return found?.at == null ? undefined : Number(found.at);
  }

  /**
   * Claims up to `limit` due deliveries for one attempt each: their next attempt moves to
   * `leaseUntil` and their attempt count up by one, in one transaction. PostgreSQL skips the rows
   * another instance is claiming (FOR UPDATE SKIP LOCKED); a claim not followed by a record
   * (the instance died) is due again at `leaseUntil`: at least once, never lost.
   */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    const { due: dueNow } = this.hot;
    const claimed = await this.x.write(function* (db, { webhookDeliveries: d, webhookEndpoints: e, webhookEvents: ev }) {
      const due = yield* rows(dueNow.bind(db, { now, limit }));
      if (due.length === 0) return [];
      const ids = due.map((r) => r.id);
      yield* run(db.update(d).set({ nextAttemptAt: leaseUntil, attempts: sql`${d.attempts} + 1` }).where(inArray(d.id, ids)));
      return yield* rows(
        db
          .select({
            id: d.id,
            attempts: d.attempts,
            createdAt: d.createdAt,
            endpointId: d.endpointId,
            workspaceId: d.workspaceId,
            eventId: ev.id,
            type: ev.type,
            data: ev.data,
            eventCreatedAt: ev.createdAt,
            url: e.url,
            secret: e.secret,
            previousSecret: e.previousSecret,
            previousSecretExpiresAt: e.previousSecretExpiresAt,
          })
          .from(d)
          .innerJoin(ev, eq(ev.id, d.eventId))
          .innerJoin(e, eq(e.id, d.endpointId))
          .where(inArray(d.id, ids)),
      );
    });
    return claimed.map(({ eventId, type, data, eventCreatedAt, ...rest }) => ({
      ...rest,
      event: { id: eventId, type, data, createdAt: Number(eventCreatedAt) },
    }));
  }

  /**
   * Records an attempt: the delivery's outcome, and the endpoint's run of failures (cleared by a
   * success; a 410, or a failure ending a run as long as the give-up window, disables it).
   */
  async record(a: AttemptRecord): Promise<void> {
    const { attempted, recovered } = this.hot;
    await this.x.write(function* (db, { webhookEndpoints: e }) {
      const status = a.outcome === "delivered" ? "delivered" : a.outcome === "retry" ? "pending" : "failed";
      yield* run(attempted.bind(db, { ...a, status, deliveredAt: a.outcome === "delivered" ? a.at : null }));
      if (a.outcome === "delivered") {
        yield* run(recovered.bind(db, { endpointId: a.endpointId }));
        return;
      }
      if (a.outcome === "gone") {
        yield* run(db.update(e).set({ disabledAt: a.at, disabledReason: GONE_REASON, updatedAt: a.at }).where(and(eq(e.id, a.endpointId), isNull(e.disabledAt))));
        return;
      }
      yield* run(db.update(e).set({ failingSince: sql`coalesce(${e.failingSince}, ${a.failingFrom})` }).where(eq(e.id, a.endpointId)));
      yield* run(
        db
          .update(e)
          .set({ disabledAt: a.at, disabledReason: a.disableReason, updatedAt: a.at })
          .where(and(eq(e.id, a.endpointId), isNull(e.disabledAt), lte(e.failingSince, a.disableIfFailingSince))),
      );
    });
  }
}

/**
 * The deliverer's statements that every delivery runs (a look for due work, the claim's
 * choice of rows, the record of a success), prepared once: built by drizzle at each use they
 * were most of a webhook's cost (issue 28's bench, scenario 15, profiled). The rest (the claim's
 * update and read of the rows chosen, which vary in number; a failure's record) is built as usual.
 */
function deliveryStatements(x: Executor) {
  const p = sql.placeholder;
  const enabled = (db: Db, e: Tables["webhookEndpoints"]) => db.select({ id: e.id }).from(e).where(isNull(e.disabledAt));
  return {
    nextDue: x.prepare((db, { webhookDeliveries: d, webhookEndpoints: e }) =>
      db.select({ at: min(d.nextAttemptAt) }).from(d).where(and(eq(d.status, "pending"), inArray(d.endpointId, enabled(db, e)))),
    ),
    // PostgreSQL skips the rows another instance is claiming (SKIP LOCKED); SQLite's write holds the lock anyway.
    due: x.prepare((db, { webhookDeliveries: d, webhookEndpoints: e }) =>
      x.forUpdate(
        db.select({ id: d.id }).from(d).where(and(eq(d.status, "pending"), lte(d.nextAttemptAt, p("now")), inArray(d.endpointId, enabled(db, e)))).orderBy(asc(d.nextAttemptAt)).limit(p("limit")),
        { skipLocked: true },
      ),
    ),
    attempted: x.prepare((db, { webhookDeliveries: d }) =>
      db
        .update(d)
        .set({
          status: sql`${p("status")}`,
          lastAttemptAt: sql`${p("at")}`,
          latencyMs: sql`${p("latencyMs")}`,
          responseStatus: sql`${p("responseStatus")}`,
          error: sql`${p("error")}`,
          responseBody: sql`${p("responseBody")}`,
          nextAttemptAt: sql`${p("nextAttemptAt")}`,
          deliveredAt: sql`${p("deliveredAt")}`,
        })
        .where(eq(d.id, p("deliveryId"))),
    ),
    // A success ends the endpoint's run of failures (no write when there was none).
    recovered: x.prepare((db, { webhookEndpoints: e }) => db.update(e).set({ failingSince: null }).where(and(eq(e.id, p("endpointId")), isNotNull(e.failingSince)))),
  };
}

/** Of these events, deletes those no delivery refers to any more. */
function* deleteUnsentEvents(db: Db, { webhookEvents: ev, webhookDeliveries: d }: Tables, ids: readonly string[]): Op<void> {
  if (ids.length === 0) return;
  const kept = new Set((yield* rows(db.select({ id: d.eventId }).from(d).where(inArray(d.eventId, [...ids])))).map((r) => r.id));
  const gone = ids.filter((id) => !kept.has(id));
  if (gone.length > 0) yield* run(db.delete(ev).where(inArray(ev.id, gone)));
}

/** A delivery's columns, named for a select that adds its event's. */
function deliveryColumns(d: typeof webhookDeliveries) {
  return {
    id: d.id,
    eventId: d.eventId,
    endpointId: d.endpointId,
    workspaceId: d.workspaceId,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    lastAttemptAt: d.lastAttemptAt,
    responseStatus: d.responseStatus,
    latencyMs: d.latencyMs,
    error: d.error,
    responseBody: d.responseBody,
    deliveredAt: d.deliveredAt,
    createdAt: d.createdAt,
  };
}
