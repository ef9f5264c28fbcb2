import { isEmbedPath, withEmbedCors } from "../rest/cors.ts";
import { errorResponse, type ErrorAsker } from "./json.ts";
import { rawPathRefusal } from "./rawTarget.ts";
import { splitPlainUrl, type TargetUrl } from "./splitUrl.ts";

/**
 * Path and query at most this long. Bun itself answers an empty 431 (no JSON, no CORS) when
 * the request line and headers pass about 16 KB; below our limit every refusal is ours.
 */
export const MAX_TARGET_CHARS = 8 * 1024;

export type RequestTarget = { ok: true; url: TargetUrl } | { ok: false; response: Response };

/**
 * The request's URL, or the answer to a target we will not serve: 400 when the Host or the
 * target does not make a URL (e.g. `Host: a:99999999`), 414 when it is longer than ours to
 * take, 400 when the path as sent holds a dot segment or a backslash (see rawTarget.ts). Neither answer nor anything logged quotes the URL: it is the client's text, any size.
 * A plain URL (the usual case) is split by hand; anything else goes through `new URL`, whose
 * answer it would be the same as (see splitPlainUrl).
 */
export function parseRequestTarget(request: Request, asker: ErrorAsker): RequestTarget {
  let url: TargetUrl | undefined = splitPlainUrl(request.url);
  if (url === undefined) {
    try {
      url = new URL(request.url);
    } catch {
      return { ok: false, response: errorResponse(asker, "invalid_request_target", "Bad request: the Host header or the request target is not a valid URL.") };
    }
  }
  if (url.pathname.length + url.search.length > MAX_TARGET_CHARS) {
    const response = errorResponse(asker, "request_target_too_long", `The request path and query are longer than ${MAX_TARGET_CHARS / 1024} KiB.`);
    return { ok: false, response: isEmbedPath(url.pathname) ? withEmbedCors(request, response) : response };
  }
  const refusal = rawPathRefusal(request, url.pathname);
  if (refusal !== undefined) return { ok: false, response: errorResponse(asker, "invalid_request_target", refusal) };
  return { ok: true, url };
}
