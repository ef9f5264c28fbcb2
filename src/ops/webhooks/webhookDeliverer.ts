import { failingReason } from "../../domain/webhooks/disabledReason.ts";
import { outcomeOfStatus, retryDelayMs } from "../../domain/webhooks/retrySchedule.ts";
import type { Logger } from "../../log.ts";
import type { ClaimedDelivery, WebhookStore } from "../../storage/stores/webhookStore.ts";
import { FANOUT_BATCH } from "../../storage/stores/webhookFanout.ts";
import { WebhookAttemptCounts } from "./attemptCounts.ts";
import type { DeliveryBell } from "./deliveryBell.ts";
import { AddressRefused, pinnedPost, type Resolve } from "./pinnedFetch.ts";
import { signedHeaders } from "./webhookSignature.ts";

export interface DelivererSettings {
  /** WEBHOOKS_ALLOW_HTTP_LOOPBACK: loopback endpoints may be sent to. */
  allowLoopback: boolean;
  /** WEBHOOKS_TIMEOUT_SECONDS: one attempt, lookup to last byte read. */
  timeoutMs: number;
  /** WEBHOOKS_RETRY_BASE_SECONDS: the first retry's wait, doubled after each failure. */
  retryBaseMs: number;
  /** WEBHOOKS_GIVE_UP_HOURS: how long a delivery is retried, and an endpoint may fail in a row. */
  giveUpMs: number;
}

/** Attempts one instance has in flight at most: a slow endpoint holds one slot, not the queue. */
const MAX_IN_FLIGHT = 16;
/** How often an idle deliverer looks for work another instance (or a retry's time) made due. */
const POLL_MS = 1_000;
/** The most of an answer's body read, and the most kept in the delivery log. */
const READ_BODY_BYTES = 64 * 1024;
const KEPT_BODY_BYTES = 1024;
/** How long a stop lets attempts in flight finish before it cuts them (each would be sent again). */
const STOP_GRACE_MS = 2_000;

/**
 * Sends the outbox's deliveries (issue 28), in the background of every instance: nothing on the
 * request path waits for it. With SQLite it first makes the deliveries of the events the outbox
 * holds (WebhookStore.fanOut: the request's write stores the event alone). It claims due
 * deliveries (WebhookStore.claimDue: one instance at a time per delivery, a lease that outlives
 * the attempt's deadline), posts each signed event
 * through the SSRF guard (pinnedPost), and records how it went: 2xx delivered, 410 disables the
 * endpoint, anything else (3xx included, a timeout, a refusal) is retried with backoff and
 * jitter until the give-up window ends. A process killed mid-attempt leaves the claim to expire:
 * the delivery is due again, and sent at least once.
 */
export class WebhookDeliverer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private looking: Promise<void> | undefined;
  private lookAgain = false;
  private stopped = false;
  /** Whether the last look failed (a fault is logged once, not once a second). */
  private claimsFailing = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly store: WebhookStore,
    private readonly settings: DelivererSettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly resolve?: Resolve,
    /** Attempts recorded, by outcome, for /metrics (Services.webhookAttempts). */
    private readonly attempts = new WebhookAttemptCounts(),
  ) {}

  /** Starts looking for due deliveries, now and whenever the bell rings. */
  start(bell: DeliveryBell): this {
    bell.listen(() => this.wake());
    this.wake();
    return this;
  }

  /** Looks for due deliveries at once (or right after the look in progress). */
  wake(): void {
    if (this.stopped) return;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.looking = this.look().finally(() => {
      this.looking = undefined;
      if (this.lookAgain) {
        this.lookAgain = false;
        this.wake();
      }
    });
  }

  /**
   * Stops claiming, lets the attempts in flight finish for up to `graceMs` (recorded as usual),
   * then cuts the rest: their claims expire and another instance (or this one, restarted) sends
   * them again, with the same webhook-id. Resolves once none is left running.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looking;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.abort.abort(new Error("the server is stopping"));
    await Promise.allSettled([...this.inFlight]);
  }

  private async look(): Promise<void> {
    let next = POLL_MS;
    try {
      // SQLite's outbox holds events; their deliveries are made here, a batch at a time.
      const fanned = await this.store.fanOut();
      if (fanned === FANOUT_BATCH) next = 0;
      const free = MAX_IN_FLIGHT - this.inFlight.size;
      const now = this.now();
      const due = free > 0 ? await this.store.nextDueAt() : undefined;
      if (due !== undefined && due <= now) {
        const claimed = await this.store.claimDue(now, free, now + this.leaseMs());
        for (const delivery of claimed) this.track(this.attempt(delivery));
        // More may be due: look again as soon as this look ends.
        if (claimed.length === free) next = 0;
      } else if (due !== undefined) {
        next = Math.min(next, due - now);
      }
      if (this.claimsFailing) this.log.info("webhook deliveries claimed again");
      this.claimsFailing = false;
    } catch (error) {
      // A busy or unreachable database: logged once per episode, and looked at again at the next poll.
      if (!this.claimsFailing) this.log.warn("webhook deliveries not claimed; retried every second until the database answers", { error: messageOf(error) });
      this.claimsFailing = true;
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => this.wake(), Math.max(0, next));
      this.timer.unref();
    }
  }

  /** Long enough for the attempt's deadline and its record, so no second instance claims it meanwhile. */
  private leaseMs(): number {
    return this.settings.timeoutMs * 2 + 5_000;
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      // A slot is free: claim the next due delivery now rather than at the next poll.
      this.wake();
    });
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const started = this.now();
    const body = JSON.stringify({ id: d.event.id, type: d.event.type, createdAt: new Date(d.event.createdAt).toISOString(), data: d.event.data });
    const secrets = d.previousSecret && (d.previousSecretExpiresAt ?? 0) > started ? [d.secret, d.previousSecret] : [d.secret];
    const headers = {
      "content-type": "application/json",
      "user-agent": "BrokerDirectory-Webhooks/1",
      ...signedHeaders(secrets, d.event.id, new Date(started), body),
    };
    let status: number | null = null;
    let error: string | null = null;
    let kept: string | null = null;
    const deadline = AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), this.abort.signal]);
    try {
      const response = await pinnedPost(
        { url: d.url, headers, body, allowLoopback: this.settings.allowLoopback, signal: deadline, maxBodyBytes: READ_BODY_BYTES },
        this.resolve,
      );
      status = response.status;
      kept = new TextDecoder().decode(response.body.subarray(0, KEPT_BODY_BYTES));
      if (status >= 300 && status < 400) error = `answered ${status}: redirects are not followed`;
      else if (outcomeOfStatus(status) === "retry") error = `answered ${status}`;
    } catch (thrown) {
      if (this.abort.signal.aborted) return; // cut by stop(): the claim expires and the delivery is sent again
      error = thrown instanceof AddressRefused ? thrown.message : deadline.aborted ? `no answer within ${this.settings.timeoutMs / 1000} s` : `could not connect: ${messageOf(thrown)}`;
    }
    const at = this.now();
    let outcome: "delivered" | "gone" | "retry" | "failed" = status === null ? "retry" : outcomeOfStatus(status);
    if (outcome === "retry" && at - d.createdAt >= this.settings.giveUpMs) outcome = "failed";
    const hours = Math.round((this.settings.giveUpMs / 3_600_000) * 100) / 100;
    try {
      await this.store.record({
        deliveryId: d.id,
        endpointId: d.endpointId,
        at,
        latencyMs: Math.max(0, at - started),
        responseStatus: status,
        error,
        responseBody: kept,
        outcome,
        nextAttemptAt: outcome === "retry" ? at + retryDelayMs(d.attempts, this.settings.retryBaseMs, Math.random()) : at,
        // A run of failures starts when its event was due (at most a minute before its first
        // attempt, for an event that waited while the endpoint was disabled): so the endpoint is
        // disabled by the failure that gives the event up, not one event later.
        failingFrom: d.attempts === 1 ? Math.max(d.createdAt, started - 60_000) : at,
        disableIfFailingSince: at - this.settings.giveUpMs,
        disableReason: failingReason(hours, error ?? "no answer"),
      });
    } catch (thrown) {
      // Not recorded: the claim expires and the delivery is tried again (at least once).
      this.log.warn("webhook attempt not recorded; it will be retried", { delivery: d.id, error: messageOf(thrown) });
      return;
    }
    this.attempts.count(outcome);
    this.log.debug("webhook attempt", { delivery: d.id, endpoint: d.endpointId, type: d.event.type, status, outcome, ms: at - started });
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
