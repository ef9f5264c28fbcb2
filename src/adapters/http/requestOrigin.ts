/**
 * The browser origin a request comes from. Browsers send `Origin` on cross-origin requests
 * and on same-origin POSTs, but not on same-origin GETs; those say `Sec-Fetch-Site:
 * same-origin`, and their origin is our own. Null for non-browser callers.
 */
export function requestOrigin(request: Request, ownOrigin: string): string | null {
  const origin = request.headers.get("origin");
  if (origin) return origin;
  return request.headers.get("sec-fetch-site") === "same-origin" ? ownOrigin : null;
}
