import { expect, test } from "bun:test";
import { failingReason, GONE_REASON, readDisabledReason, WORKSPACE_REASON } from "../../src/domain/webhooks/disabledReason.ts";
import { WebhookAttemptCounts } from "../../src/ops/webhooks/attemptCounts.ts";
import { webhookGauges } from "../../src/ops/webhooks/webhookGauges.ts";

test("a disabled endpoint's reason reads back as what it was written from", () => {
  expect(readDisabledReason(GONE_REASON)).toEqual({ kind: "gone" });
  expect(readDisabledReason(WORKSPACE_REASON)).toEqual({ kind: "workspace" });
  expect(readDisabledReason(failingReason(0.5, "answered 500"))).toEqual({ kind: "failing", hours: "0.5", last: "answered 500" });
  expect(readDisabledReason("switched off by hand")).toEqual({ kind: "other", text: "switched off by hand" });
});

test("the outbox's series: attempts by outcome, the backlog's age in seconds, disabled endpoints by reason", () => {
  const attempts = new WebhookAttemptCounts();
  attempts.count("failed");
  attempts.count("retry");
  attempts.count("retry");
  const lines = webhookGauges({ pending: 7, oldestPendingAt: 1_000, disabledEndpoints: { gone: 0, failing: 2, workspace: 1 } }, attempts, 91_500);
  expect(lines).toContain('broker_directory_webhook_attempts_total{outcome="failed"} 1');
  expect(lines).toContain('broker_directory_webhook_attempts_total{outcome="retry"} 2');
  expect(lines).toContain('broker_directory_webhook_attempts_total{outcome="delivered"} 0');
  expect(lines).toContain("broker_directory_webhook_deliveries_pending 7");
  expect(lines).toContain("broker_directory_webhook_oldest_pending_age_seconds 90.500");
  expect(lines).toContain('broker_directory_webhook_endpoints_disabled{reason="failing"} 2');
  // The outbox unread (the database did not answer): its series are left out, never shown as 0.
  const unread = webhookGauges(undefined, attempts, 0);
  expect(unread.some((l) => l.startsWith("broker_directory_webhook_deliveries_pending"))).toBe(false);
  expect(unread).toContain('broker_directory_webhook_attempts_total{outcome="retry"} 2');
});
