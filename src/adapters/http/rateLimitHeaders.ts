import type { RateDecision } from "../../auth/rateLimiter.ts";
import { JSON_CONTENT_TYPE } from "./json.ts";

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

/**
 * An admitted request's JSON answer (admitted: its rate decision allowed it, so no Retry-After) with every header it carries (jsonText's, the rate-limit
 * ones above, the request id), written as one object literal: merging header sets per request
 * cost a tenth of a cached answer. The front door is told the id is already there.
 * test/http/fast-path-identity.test.ts holds it to the headers of the general path.
 */
export function admittedJson(text: string, status: number, rate: RateDecision, info: { requestId: string; requestIdSent?: boolean }): Response {
  info.requestIdSent = true;
  return new Response(text, {
    status,
    headers: {
      "Content-Type": JSON_CONTENT_TYPE,
      "Cache-Control": "no-store",
      "RateLimit-Limit": String(rate.limit),
      "RateLimit-Remaining": String(rate.remaining),
      "RateLimit-Reset": String(rate.resetSeconds),
      "X-Request-Id": info.requestId,
    },
  });
}
