import { DISABLED_KINDS, type OutboxGauges } from "../../storage/stores/webhookOutboxGauges.ts";
import { ATTEMPT_OUTCOMES, type WebhookAttemptCounts } from "./attemptCounts.ts";

/**
 * The outbox in the Prometheus text format (issue 28): the backlog and its age, read from the
 * database at scrape time (undefined when that read failed: the series are left out rather than
 * reported as 0, which would look healthy), and this process's attempts by outcome.
 */
export function webhookGauges(outbox: OutboxGauges | undefined, attempts: WebhookAttemptCounts, now: number): string[] {
  const lines = [
    "# HELP broker_directory_webhook_attempts_total Webhook delivery attempts this process recorded, by outcome (delivered: 2xx; retry: failed, tried again later; failed: given up after the retry window; gone: 410, endpoint disabled).",
    "# TYPE broker_directory_webhook_attempts_total counter",
    ...ATTEMPT_OUTCOMES.map((outcome) => `broker_directory_webhook_attempts_total{outcome="${outcome}"} ${attempts.of(outcome)}`),
  ];
  if (!outbox) return lines;
  const age = outbox.oldestPendingAt === null ? 0 : Math.max(0, (now - outbox.oldestPendingAt) / 1000);
  return [
    ...lines,
    "# HELP broker_directory_webhook_deliveries_pending Webhook deliveries waiting to be sent to enabled endpoints, retries included (counted up to 100000).",
    "# TYPE broker_directory_webhook_deliveries_pending gauge",
    `broker_directory_webhook_deliveries_pending ${outbox.pending}`,
    "# HELP broker_directory_webhook_oldest_pending_age_seconds Age of the oldest webhook delivery still waiting to be sent to an enabled endpoint; 0 when none waits.",
    "# TYPE broker_directory_webhook_oldest_pending_age_seconds gauge",
    `broker_directory_webhook_oldest_pending_age_seconds ${age.toFixed(3)}`,
    "# HELP broker_directory_webhook_endpoints_disabled Webhook endpoints disabled, by reason (gone: answered 410; failing: failed for the whole retry window; workspace: disabled by its workspace).",
    "# TYPE broker_directory_webhook_endpoints_disabled gauge",
    ...DISABLED_KINDS.map((reason) => `broker_directory_webhook_endpoints_disabled{reason="${reason}"} ${outbox.disabledEndpoints[reason]}`),
  ];
}
