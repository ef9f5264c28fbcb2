import { queryInput, type RestRoute } from "./restRoute.ts";

/**
 * The response-cache key of a directory read: the route and its input as the procedure will
 * see it, i.e. parsed by the route's own input schema (unknown parameters dropped, defaults
 * filled in, text trimmed and folded, numbers as numbers). `?page=1&x=<15 KB>` and `?` are
 * then one entry, not two. The input is built as the route builds it for its procedure
 * (queryInput). Undefined when it does not parse: the procedure answers that with a 422,
 * which is never cached.
 */
export function responseCacheKey(route: RestRoute, params: Record<string, string>, query: Record<string, string>): string | undefined {
  const parsed = route.input.safeParse(queryInput(route, params, query));
  if (!parsed.success) return undefined;
  return `${route.method} ${route.path} ${JSON.stringify(parsed.data)}`;
}
