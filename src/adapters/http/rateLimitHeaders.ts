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
 * The headers of every admitted JSON answer: jsonText's, the rate-limit ones above and the
 * request id. One set, refilled per answer (a Response takes a copy of the Headers it is
 * given): copying a ready set costs half of building one from an object literal, and merging
 * header objects per request cost a tenth of a cached answer.
 */
const admittedHeaders = new Headers({
  "Content-Type": JSON_CONTENT_TYPE,
  "Cache-Control": "no-store",
  "RateLimit-Limit": "",
  "RateLimit-Remaining": "",
  "RateLimit-Reset": "",
  "X-Request-Id": "",
});

/**
 * An admitted request's JSON answer (admitted: its rate decision allowed it, so no
 * Retry-After), its request id already stamped: the front door is told so.
 * test/http/fast-path-identity.test.ts holds cached answers to the headers of fresh ones.
 */
export function admittedJson(text: string | Uint8Array<ArrayBuffer>, status: number, rate: RateDecision, info: { requestId: string; requestIdSent?: boolean }): Response {
  info.requestIdSent = true;
  admittedHeaders.set("RateLimit-Limit", String(rate.limit));
  admittedHeaders.set("RateLimit-Remaining", String(rate.remaining));
  admittedHeaders.set("RateLimit-Reset", String(rate.resetSeconds));
  admittedHeaders.set("X-Request-Id", info.requestId);
  return new Response(text, { status, headers: admittedHeaders });
}
