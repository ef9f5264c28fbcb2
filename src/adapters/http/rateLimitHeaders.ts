import type { RateDecision } from "../../auth/rateLimiter.ts";
import { JSON_CONTENT_TYPE, type ResponseBody } from "./json.ts";

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
 * The answer function of one content type: the content type's headers, the rate-limit ones
 * above and the request id, from one set refilled per answer (a Response takes a copy of the
 * Headers it is given): copying a ready set costs half of building one from an object
 * literal, and merging header objects per request cost a tenth of a cached answer.
 *
 * Each answer is an admitted request's (its rate decision allowed it, so no Retry-After),
 * its request id already stamped: the front door is told so.
 * test/http/fast-path-identity.test.ts holds cached answers to the headers of fresh ones.
 */
export function admittedAnswers(contentType: string) {
  const headers = new Headers({
    "Content-Type": contentType,
    "Cache-Control": "no-store",
    "RateLimit-Limit": "",
    "RateLimit-Remaining": "",
    "RateLimit-Reset": "",
    "X-Request-Id": "",
  });
  return function admitted(body: ResponseBody, status: number, rate: RateDecision, info: { requestId: string; requestIdSent?: boolean }): Response {
    info.requestIdSent = true;
    headers.set("RateLimit-Limit", String(rate.limit));
    headers.set("RateLimit-Remaining", String(rate.remaining));
    headers.set("RateLimit-Reset", String(rate.resetSeconds));
    headers.set("X-Request-Id", info.requestId);
    return new Response(body, { status, headers });
  };
}

/** An admitted REST answer (see admittedAnswers). */
export const admittedJson = admittedAnswers(JSON_CONTENT_TYPE);
