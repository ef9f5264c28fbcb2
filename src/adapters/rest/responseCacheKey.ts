import { BoundedCache, type CacheLimits, type CacheStats } from "../../cache/boundedCache.ts";
import type { TargetUrl } from "../http/splitUrl.ts";
import { queryInput, queryObject, type RestRoute } from "./restRoute.ts";

/**
 * The response-cache key of a directory read: the route and its input as the procedure will
 * see it, i.e. parsed by the route's own input schema (unknown parameters dropped, defaults
 * filled in, text trimmed and folded, numbers as numbers). `?page=1&x=<15 KB>` and `?` are
 * then one entry, not two. The input is built as the route builds it for its procedure
 * (queryInput). Undefined when it does not parse: the procedure answers that with a 422,
 * which is never cached.
 */
export function responseCacheKey(route: RestRoute, params: Record<string, string>, query: Record<string, string>, parsedInput?: ParsedInput): string | undefined {
  const parsed = route.input.safeParse(queryInput(route, params, query));
  if (!parsed.success) return undefined;
  if (parsedInput) parsedInput.data = parsed.data;
  return `${route.method} ${route.path} ${JSON.stringify(parsed.data)}`;
}

/**
 * What working out a URL's cache key left to reuse when the answer is not cached: the query
 * as one value per name, and the input as the route's own schema parsed it (see callProcedure).
 * Filled only when the key was not remembered; the call then computes what is missing.
 */
export interface ParsedInput {
  query?: Record<string, string>;
  data?: unknown;
}

/**
 * The response-cache key of each URL seen lately, so that a repeated URL skips the schema
 * parse above (a third of a cached answer's time). The key is a function of the method, path
 * and query alone (the route and its parameters follow from them; the schema does not
 * change while the process runs), so a remembered key is always the one the parse would give.
 * Keyed by the client's URL: bounded like every such cache (see CACHE_KEY_LIMITS).
 */
export class ResponseCacheKeys {
  /** null: the URL's input does not parse (the answer is a 422, never cached). */
  private readonly keys: BoundedCache<string | null>;

  constructor(limits: CacheLimits) {
    this.keys = new BoundedCache("rest-cache-keys", limits, (key) => (key?.length ?? 0) * 2);
  }

  of(route: RestRoute, params: Record<string, string>, url: TargetUrl, parsedInput?: ParsedInput): string | undefined {
    // Without a query string the input is a function of the path alone, so the path is the key:
    // no parse, no entry here. A broker's detail or review page spread over 100,000 brokers
    // (every request a different URL) otherwise paid a lookup, a parse, the key's JSON and a
    // churned entry of this cache per miss (issue 30). Such a key never names an invalid input
    // in the response cache: only answers the procedure gave (having parsed the input) are kept.
    // "=" cannot begin a parsed key's second part (the route's path, "/…"), so the two never meet.
    // (Directory reads are GETs without a body: their input is the path and the query.)
    if (url.search === "") return `${route.method} =${url.pathname}`;
    const target = `${route.method} ${url.pathname}${url.search}`;
    let key = this.keys.get(target);
    if (key === undefined) {
      const query = queryObject(url);
      if (parsedInput) parsedInput.query = query;
      key = responseCacheKey(route, params, query, parsedInput) ?? null;
      this.keys.set(target, key);
    }
    return key ?? undefined;
  }

  stats(): CacheStats {
    return this.keys.stats();
  }
}

