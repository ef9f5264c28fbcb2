import type { CacheLimits, CacheStats } from "../../cache/boundedCache.ts";
import { VersionedCache } from "../../storage/versionedCache.ts";

/** What an answer is kept as: its text, or something of a known size made from it (UTF-8 bytes…). */
type Body = string | { readonly byteLength: number };

interface CachedAnswer<B extends Body> {
  body: B;
  /** Set when the body holds the base URL it was built with (e.g. embed photoUrl): served only to that base URL. */
  baseUrl: string | undefined;
}

/**
 * Serialized answers of directory reads, valid for one directory version and bounded in bytes
 * and entries. A hit skips the procedure pipeline (the query, output validation and JSON
 * encoding) but never admission: the key, its origin rules and its rate limit are checked on
 * every request, and only callers holding the route's scope are served from here.
 *
 * Keys name the route and its parsed input (see responseCacheKey), or for a URL without a query
 * string its path (its input follows from the path alone), never the Host: most answers
 * do not depend on the base URL. Those that do (absolute photo URLs) contain it, so an answer is
 * tagged with the base URL when its text holds it and then served only to requests with that
 * same base URL; another base URL recomputes it and replaces the entry. A rotated Host therefore
 * never adds entries, and with PUBLIC_URL set the base URL never changes at all.
 */
export class ResponseCache<B extends Body = string> {
  private readonly answers: VersionedCache<CachedAnswer<B>>;

  /**
   * `encode`: what the answer's text is kept as. REST keeps its UTF-8 bytes (utf8Body), sent
   * as they are; MCP keeps them too, with the envelope last made around them (ResultBytes).
   */
  constructor(
    limits: CacheLimits,
    name: string,
    private readonly encode: (text: string) => B,
  ) {
    // Strings are UTF-16 in memory; a tagged base URL costs its text too.
    this.answers = new VersionedCache(name, limits, (a) => (typeof a.body === "string" ? a.body.length * 2 : a.body.byteLength) + (a.baseUrl?.length ?? 0) * 2);
  }

  get(key: string, version: number, baseUrl: string): B | undefined {
    const answer = this.answers.lookup(key, version);
    if (answer === undefined || (answer.baseUrl !== undefined && answer.baseUrl !== baseUrl)) return undefined;
    return answer.body;
  }

  /**
   * Encoded, and searched for the base URL, only when the cache keeps it (most first offers are
   * not). Returns the encoded body when it was made, for the caller to send: REST then answers
   * from the same bytes instead of having the Response encode the text a second time.
   */
  set(key: string, version: number, baseUrl: string, body: string): B | undefined {
    return this.answers.storeMade(key, version, () => {
      const holdsBaseUrl = body.includes(baseUrl) || body.includes(JSON.stringify(baseUrl).slice(1, -1));
      return { body: this.encode(body), baseUrl: holdsBaseUrl ? baseUrl : undefined };
    })?.body;
  }

  stats(): CacheStats {
    return this.answers.stats();
  }
}
