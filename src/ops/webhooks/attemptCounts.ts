import type { AttemptRecord } from "../../storage/stores/webhookStore.ts";

type Outcome = AttemptRecord["outcome"];

/** Every outcome, so /metrics shows each series from the start (at 0) rather than after its first attempt. */
export const ATTEMPT_OUTCOMES = ["delivered", "retry", "failed", "gone"] as const satisfies readonly Outcome[];

/**
 * Webhook delivery attempts this process recorded, by outcome, for /metrics: counted by the
 * deliverer in memory (a Prometheus counter is per process and starts at 0), so a scrape reads
 * them without touching the database.
 */
export class WebhookAttemptCounts {
  private readonly counts = new Map<Outcome, number>(ATTEMPT_OUTCOMES.map((o) => [o, 0]));

  count(outcome: Outcome): void {
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
  }

  of(outcome: Outcome): number {
    return this.counts.get(outcome) ?? 0;
  }
}
