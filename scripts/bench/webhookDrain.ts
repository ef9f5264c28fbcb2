/**
 * Webhook delivery throughput, apart from the lead POST (issue 28's bench). The bench's server runs
 * with WEBHOOKS_DELIVERY=false, so scenario (15) measures what a lead costs with an endpoint to
 * tell: its event, written in its transaction (the outbox). Its deliveries are then made and
 * sent here by a second instance over the same database, which does nothing else: the
 * deliveries it sends per second to the bench's receiver (loopback, 204 at once; a new connection
 * each, as to a real endpoint) is what one instance delivers on this machine.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { freePort, startApp, stopProcess, type AppCommand } from "./appProcess.ts";

export interface WebhookDrainRecord {
  /** Deliveries pending when the delivering instance started. */
  pending: number;
  /** Of those, sent once it answered /healthz, and how long that took. */
  delivered: number;
  seconds: number;
  deliveriesPerSecond: number;
}

/** How long the drain may take before the figure is taken from what was sent. */
const DRAIN_LIMIT_MS = 120_000;

export async function measureWebhookDrain(
  app: AppCommand,
  db: string,
  dir: string,
  received: () => number,
  env: Record<string, string>,
): Promise<WebhookDrainRecord | undefined> {
  const pending = pendingDeliveries(db);
  if (pending === 0) return undefined;
  const drainer = await startApp(app, { db, port: await freePort(), cwd: dir, logFile: join(dir, "drainer.log"), demo: false, logLevel: "warn", env: { ...env, WEBHOOKS_DELIVERY: "true" } });
  try {
    const before = received();
    const started = performance.now();
    while (pendingDeliveries(db) > 0 && performance.now() - started < DRAIN_LIMIT_MS) await Bun.sleep(50);
    const seconds = (performance.now() - started) / 1000;
    const delivered = received() - before;
    return { pending, delivered, seconds: Math.round(seconds * 100) / 100, deliveriesPerSecond: Math.round(delivered / seconds) };
  } finally {
    await stopProcess(drainer);
  }
}

/** Deliveries not yet sent: the pending rows, and those the outbox's waiting events will make (src/storage/stores/webhookFanout.ts). */
function pendingDeliveries(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.query<{ n: number }, []>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get()!.n;
    const waiting = db
      .query<{ n: number | null }, []>("SELECT sum(json_array_length(endpoint_ids)) AS n FROM webhook_events WHERE rowid > (SELECT value FROM meta WHERE key = 'webhook_fanout')")
      .get()!.n;
    return rows + (waiting ?? 0);
  } finally {
    db.close();
  }
}
