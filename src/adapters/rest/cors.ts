import { normalizeOrigin } from "../../domain/origin.ts";
import { errorResponse, type ErrorAsker } from "../http/json.ts";

/**
 * CORS for the embed API. Only /api/v1/embed/* is meant for browsers (partner pages calling
 * with an embed key); every other path is server-to-server and answers no CORS at all.
 *
 * - Preflight (OPTIONS) carries no key — browsers never send one — so it is answered for any
 *   web origin: it only tells the browser which method and headers it may use. Whether the
 *   origin may actually call is decided on the real request, by the key's origins list.
 * - Real responses (success and every error: 401, 403, 404, 413, 415, 422, 429…) echo the
 *   request's Origin and expose the headers a widget needs, so it can read error messages,
 *   back off on Retry-After and quote X-Request-Id to support. No credentials: the key is in
 *   the Authorization header, never in a cookie.
 */
export const EMBED_PATH_PREFIX = "/api/v1/embed/";
export const PREFLIGHT_MAX_AGE_SECONDS = 600;
export const CORS_ALLOWED_METHODS = "GET, POST, OPTIONS";
export const CORS_ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key";
export const CORS_EXPOSED_HEADERS = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, Idempotent-Replayed";

export function isEmbedPath(pathname: string): boolean {
  return pathname.startsWith(EMBED_PATH_PREFIX);
}

/** The Origin header when it is a plain http(s) origin worth echoing ("null" and junk are not). */
function echoableOrigin(request: Request): string | undefined {
  const origin = request.headers.get("origin");
  return origin && normalizeOrigin(origin) === origin ? origin : undefined;
}

/**
 * OPTIONS on a path that exists: a CORS preflight answer (204) on embed paths; elsewhere
 * 405, since server-to-server endpoints are not for browsers and say so.
 */
export function optionsResponse(request: Request, asker: ErrorAsker, pathname: string, allowedMethods: readonly string[]): Response {
  if (!isEmbedPath(pathname)) {
    const allow = allowedMethods.join(", ");
    return errorResponse(
      asker,
      "method_not_allowed",
      `OPTIONS is not allowed on ${pathname.slice(0, 200)}: it is a server-to-server endpoint and answers no CORS. ` +
        `Call it from your server with a server key (${allow}); from a web page use /api/v1/embed/* with an embed key.`,
      { Allow: allow },
    );
  }
  const headers: Record<string, string> = {
    Allow: [...allowedMethods, "OPTIONS"].join(", "),
    "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
  };
  const origin = echoableOrigin(request);
  if (origin) headers["Access-Control-Allow-Origin"] = origin;
  return new Response(null, { status: 204, headers });
}

/** Adds the CORS answer to a real response on an embed path (any status). */
export function withEmbedCors(request: Request, response: Response): Response {
  // Responses differ by Origin (echoed or not), so shared caches must key on it.
  if (!/\borigin\b/i.test(response.headers.get("Vary") ?? "")) response.headers.append("Vary", "Origin");
  const origin = echoableOrigin(request);
  if (origin) {
    response.headers.set("Access-Control-Allow-Origin", origin);
    response.headers.set("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS);
  }
  return response;
}
