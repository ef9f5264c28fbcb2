/**
 * When a failed delivery is tried again (issue 28): exponential backoff from `baseMs` (10 s by
 * default, WEBHOOKS_RETRY_BASE_SECONDS), doubling at each attempt up to one hour between two
 * attempts, each gap spread by ±25 % of jitter so endpoints that failed together are not all
 * retried in the same second. With the defaults: 10 s, 20 s, 40 s … 34 min, then hourly, for the
 * give-up window (24 h): about 30 attempts.
 */
export const MAX_RETRY_GAP_MS = 60 * 60_000;

/** The wait after the `attempts`-th failed attempt (1 for the first); `random` in [0, 1). */
export function retryDelayMs(attempts: number, baseMs: number, random: number): number {
  const exponential = baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  const gap = Math.min(exponential, Math.max(MAX_RETRY_GAP_MS, baseMs));
  return Math.round(gap * (0.75 + 0.5 * random));
}

/** What a response status means for a delivery: 2xx delivered, 410 the endpoint asks to be disabled, anything else (3xx included: redirects are not followed) a retry. */
export function outcomeOfStatus(status: number): "delivered" | "gone" | "retry" {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 410) return "gone";
  return "retry";
}
