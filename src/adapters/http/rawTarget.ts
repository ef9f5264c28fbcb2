/**
 * The path as the client sent it, before Bun's URL parser resolved it. `request.url` is already
 * normalised: `\` read as `/`, `.` and `..` segments (and their `%2e` spellings) resolved, so
 * `/api/v1/brokers\..\keys` arrives as `/api/v1/keys`. A proxy in front that filters by prefix
 * would have let the raw path through; we refuse it instead (400) of serving the path it resolves to.
 *
 * Bun 1.3 offers the raw target in one place only: its `routes` table is matched against the raw
 * path, and a route's `:name` parameters are the raw segments, percent-decoded. So the server
 * routes every request through one pattern per depth (below), and the segments are read from
 * `request.params`. A target none of them matches (an empty segment such as `//`, more segments
 * than MAX_PATH_SEGMENTS, an absolute-form target) reaches the fallback with no params and is
 * refused too, except `/` itself: what it became cannot be checked. (test/http/raw-target.test.ts
 * fails if a Bun upgrade changes any of this.)
 */

/** The deepest path served: ours need 6 segments (a broker photo). */
export const MAX_PATH_SEGMENTS = 16;

/**
 * Route patterns `/:s1`, `/:s1/`, `/:s1/:s2`, … up to MAX_PATH_SEGMENTS, and `/`, all sent to
 * `handler`. (Matching is Bun's, in native code: measured, no cost per request.)
 */
export function rawSegmentRoutes<H>(handler: H): Record<string, H> {
  const routes: Record<string, H> = { "/": handler };
  let pattern = "";
  for (let depth = 1; depth <= MAX_PATH_SEGMENTS; depth++) {
    pattern += `/:s${depth}`;
    routes[pattern] = handler;
    routes[`${pattern}/`] = handler;
  }
  return routes;
}

/**
 * Why the raw path is refused, or undefined to serve it. A segment that is `.` or `..` (in any
 * spelling), or that holds a backslash, an encoded slash (`%2f`) or a NUL, would be read as
 * another path by some component between the client and us; none of our paths has one.
 */
export function rawPathRefusal(request: Request, pathname: string): string | undefined {
  const segments = (request as { params?: Record<string, string> }).params;
  if (segments === undefined) {
    return pathname === "/" ? undefined : `The request path has an empty segment ('//'), more than ${MAX_PATH_SEGMENTS} segments, or is not in origin form; it is refused rather than resolved.`;
  }
  for (const name in segments) {
    const segment = segments[name]!;
    if (segment === "." || segment === ".." || segment.includes("\\") || segment.includes("/") || segment.includes("\0")) {
      return "The request path holds a '.' or '..' segment, a backslash, an encoded slash or a NUL (raw or percent-encoded); it is refused rather than resolved.";
    }
  }
  return undefined;
}
