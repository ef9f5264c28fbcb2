import type { RateDecision } from "../../auth/rateLimiter.ts";

/**
 * The rate-limit headers on every admitted (or throttled) response: the three-header form of
 * the IETF draft (RateLimit-Limit / -Remaining / -Reset, in seconds), plus Retry-After on 429.
 */
export function rateLimitHeaders(rate: RateDecision | undefined): Record<string, string> {
  if (!rate) return {};
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(rate.limit),
    "RateLimit-Remaining": String(rate.remaining),
    "RateLimit-Reset": String(rate.resetSeconds),
  };
  if (!rate.allowed) headers["Retry-After"] = String(rate.resetSeconds);
  return headers;
}
