import { run, type Db, type Op, type Runnable, type Tables } from "../executor.ts";
import { claimKey, type IdempotencyRecord } from "./idempotencyStore.ts";
import type { OutboxEvent, WebhookOutbox } from "./webhookOutbox.ts";

/**
 * What a creating write (a lead, a quote) carries in its own transaction besides its row: the
 * idempotency record that claims the request's key (issue 28 §2) and the webhook event it raises
 * (§1). Committed together, or not at all.
 */
export interface CreatedWith {
  record?: IdempotencyRecord;
  event?: OutboxEvent;
}

/**
 * What the write did: `held` is the record of another request that claimed the key first (then
 * nothing was written, and the caller answers from it); `deliveries` is how many webhook
 * deliveries it queued (the deliverer is woken when there are any).
 */
export interface CreatedOutcome {
  held?: IdempotencyRecord;
  deliveries: number;
}

/** The row, written only if the key is claimed, then its event for the endpoints that want it. */
export function* writeCreated(db: Db, t: Tables, insert: Runnable, outbox: WebhookOutbox, { record, event }: CreatedWith): Op<CreatedOutcome> {
  if (record) {
    const held = yield* claimKey(db, t, record);
    if (held) return { held, deliveries: 0 };
  }
  yield* run(insert);
  return { deliveries: event ? yield* outbox.write(db, t, event) : 0 };
}
