/**
 * Matches request paths against route patterns with `:name` segments. Static segments are
 * compared exactly; parameters take one non-empty segment, percent-decoded.
 */
export interface CompiledPath<T> {
  segments: string[];
  /** For each segment, its parameter's name (without the colon), or undefined for a static segment. */
  params: (string | undefined)[];
  value: T;
}

export function compilePaths<T>(entries: readonly { path: string; value: T }[]): CompiledPath<T>[] {
  return entries.map(({ path, value }) => {
    const segments = path.split("/").slice(1);
    return { segments, params: segments.map((s) => (s.startsWith(":") ? s.slice(1) : undefined)), value };
  });
}

/**
 * Every route whose pattern the path fits. The static segments are compared first and a
 * route's parameters are decoded only once they all match: most of the route table has as
 * many segments as a broker's or a review page's path, and building a parameter object for
 * each of them cost every request (a tenth of the routing in a CPU profile of detail misses).
 */
export function matchPath<T>(
  compiled: readonly CompiledPath<T>[],
  pathname: string,
): { value: T; params: Record<string, string> }[] {
  const parts = pathname.split("/").slice(1);
  if (parts.length > 1 && parts.at(-1) === "") parts.pop(); // a trailing slash means the same path
  const matches: { value: T; params: Record<string, string> }[] = [];
  for (const route of compiled) {
    if (route.segments.length !== parts.length || !staticSegmentsMatch(route, parts)) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const name = route.params[i];
      if (name === undefined) continue;
      const decoded = safeDecode(parts[i]!);
      if (decoded === undefined || decoded === "") ok = false;
      else params[name] = decoded;
    }
    if (ok) matches.push({ value: route.value, params });
  }
  return matches;
}

function staticSegmentsMatch(route: CompiledPath<unknown>, parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) if (route.params[i] === undefined && route.segments[i] !== parts[i]) return false;
  return true;
}

function safeDecode(segment: string): string | undefined {
  // Without a % there is nothing to decode (the common case: slugs and ids as search returns them).
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
