/**
 * Matches request paths against route patterns with `:name` segments. Static segments are
 * compared exactly; parameters take one non-empty segment, percent-decoded.
 */
export interface CompiledPath<T> {
  segments: string[];
  value: T;
}

export function compilePaths<T>(entries: readonly { path: string; value: T }[]): CompiledPath<T>[] {
  return entries.map(({ path, value }) => ({ segments: path.split("/").slice(1), value }));
}

export function matchPath<T>(
  compiled: readonly CompiledPath<T>[],
  pathname: string,
): { value: T; params: Record<string, string> }[] {
  const parts = pathname.split("/").slice(1);
  if (parts.length > 1 && parts.at(-1) === "") parts.pop(); // a trailing slash means the same path
  const matches: { value: T; params: Record<string, string> }[] = [];
  for (const route of compiled) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const pattern = route.segments[i]!;
      const part = parts[i]!;
      if (pattern.startsWith(":")) {
        const decoded = safeDecode(part);
        if (decoded === undefined || decoded === "") ok = false;
        else params[pattern.slice(1)] = decoded;
      } else if (pattern !== part) ok = false;
    }
    if (ok) matches.push({ value: route.value, params });
  }
  return matches;
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
