import { run, type Db, type Op, type Runnable, type Tables } from "../executor.ts";
import { KeyClaims, type IdempotencyRecord } from "./idempotencyStore.ts";
import { WebhookOutbox, type OutboxEvent } from "./webhookOutbox.ts";
import type { Executor } from "../executor.ts";

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

/** How a store of created things (LeadStore, QuoteStore) writes one with what it carries. */
export class CreatedWriter {
  readonly outbox: WebhookOutbox;
  private readonly claims: KeyClaims;

  constructor(x: Executor) {
    this.outbox = new WebhookOutbox(x);
    this.claims = new KeyClaims(x);
  }

  /** The row, written only if the key is claimed, then its event for the endpoints that want it. */
  *write(db: Db, t: Tables, insert: Runnable, { record, event }: CreatedWith): Op<CreatedOutcome> {
    if (record) {
      const held = yield* this.claims.claim(db, record);
      if (held) return { held, deliveries: 0 };
    }
    yield* run(insert);
    return { deliveries: event ? yield* this.outbox.write(db, t, event) : 0 };
  }
}
