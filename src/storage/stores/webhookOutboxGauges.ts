import { and, count, eq, inArray, isNotNull, isNull, min } from "drizzle-orm";
import { readDisabledReason } from "../../domain/webhooks/disabledReason.ts";
import { row, rows, type Executor } from "../executor.ts";
import type { FanoutBacklog } from "./webhookFanout.ts";

/** Pending deliveries one scrape reads at most: beyond this the gauge says "this many or more". */
export const PENDING_COUNT_CAP = 100_000;

/** Why endpoints are disabled, as /metrics labels them (failing: the whole give-up window in a row). */
export const DISABLED_KINDS = ["gone", "failing", "workspace"] as const;
export type DisabledKind = (typeof DISABLED_KINDS)[number];

export interface OutboxGauges {
  /** Deliveries waiting to be sent to an enabled endpoint (at most PENDING_COUNT_CAP). */
  pending: number;
  /** When the oldest of them was queued (ms since the epoch), or null when none waits. */
  oldestPendingAt: number | null;
  disabledEndpoints: Record<DisabledKind, number>;
}

/**
 * The outbox as /metrics shows it, read at scrape time in two bounded reads: the pending
 * deliveries to enabled endpoints (the ones the deliverers work through; those of a disabled
 * endpoint wait for it to be enabled and are not a backlog), walked through the status index
 * and capped, and the disabled endpoints grouped by reason (a workspace has at most 20).
 */
export async function readOutboxGauges(x: Executor): Promise<OutboxGauges> {
  return x.read(function* (db, { webhookDeliveries: d, webhookEndpoints: e }) {
    const enabled = db.select({ id: e.id }).from(e).where(isNull(e.disabledAt));
    const waiting = db
      .select({ createdAt: d.createdAt })
      .from(d)
      .where(and(eq(d.status, "pending"), inArray(d.endpointId, enabled)))
      .limit(PENDING_COUNT_CAP)
      .as("waiting");
    const backlog = yield* row(db.select({ n: count(), oldest: min(waiting.createdAt) }).from(waiting));
    const reasons = yield* rows(db.select({ reason: e.disabledReason, n: count() }).from(e).where(isNotNull(e.disabledAt)).groupBy(e.disabledReason));
    const disabledEndpoints: Record<DisabledKind, number> = { gone: 0, failing: 0, workspace: 0 };
    for (const { reason, n } of reasons) {
      const kind = readDisabledReason(reason ?? "").kind;
      // A reason written some other way is counted with the failures: it was not the workspace's choice.
      disabledEndpoints[kind === "gone" || kind === "workspace" ? kind : "failing"] += Number(n);
    }
    const oldest = backlog?.oldest;
    return { pending: Number(backlog?.n ?? 0), oldestPendingAt: oldest == null ? null : Number(oldest), disabledEndpoints };
  });
}

/**
 * The gauges with the deliveries SQLite's waiting events will make (webhookFanout.ts): pending
 * as soon as the lead is committed, though their rows are written when the deliverer fans them
 * out. Still capped: "this many or more".
 */
export function withWaitingEvents(gauges: OutboxGauges, waiting: FanoutBacklog): OutboxGauges {
  const oldest = [gauges.oldestPendingAt, waiting.oldestAt].filter((at): at is number => at !== null);
  return {
    ...gauges,
    pending: Math.min(PENDING_COUNT_CAP, gauges.pending + waiting.deliveries),
    oldestPendingAt: oldest.length === 0 ? null : Math.min(...oldest),
  };
}
