import { BoundedCache, type CacheStats } from "../../cache/boundedCache.ts";
import { utf8Body } from "../http/json.ts";
import { ResponseCache } from "../rest/responseCache.ts";
import type { JsonObject } from "./jsonRpc.ts";
import { ResultBytes } from "./resultBytes.ts";
import type { McpTool } from "./toolDefinition.ts";

/** As REST's response cache (see restHandler), smaller: agents repeat fewer distinct calls than pages do. */
const RESULT_LIMITS = { maxEntries: 5_000, maxBytes: 16 * 1024 * 1024, secondRequest: true };
/** The cache key of each argument text seen lately; arguments are 64 KiB at most (the body's cap). */
const KEY_LIMITS = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024, secondRequest: true };

/**
 * Serialized results of the directory-reading tools, valid for one directory version, as the
 * REST response cache keeps directory answers. A result is keyed by the tool and its arguments
 * as the tool's schema parses them (defaults filled in, text folded), so `{"limit":20}` and `{}`
 * share one entry; the parse itself is remembered per argument text, so a repeated call skips it.
 */
export class ToolResultCache {
  /** Kept as UTF-8 bytes, with the envelope last made around them (see ResultBytes). */
  private readonly results = new ResponseCache(RESULT_LIMITS, "mcp-tool-results", (json) => new ResultBytes(utf8Body(json)));
  /** null: the arguments do not parse (the call answers an isError result, never cached). */
  private readonly keys = new BoundedCache<string | null>("mcp-tool-keys", KEY_LIMITS, (key) => (key?.length ?? 0) * 2);

  /** The entry's key, or undefined when the arguments fail the tool's schema. */
  keyOf(tool: McpTool, args: JsonObject): string | undefined {
    const text = `${tool.name} ${JSON.stringify(args)}`;
    let key = this.keys.get(text);
    if (key === undefined) {
      const parsed = tool.input.safeParse(args);
      key = parsed.success ? `${tool.name} ${JSON.stringify(parsed.data)}` : null;
      this.keys.set(text, key);
    }
    return key ?? undefined;
  }

  get(key: string, version: number, baseUrl: string): ResultBytes | undefined {
    return this.results.get(key, version, baseUrl);
  }

  /** The bytes kept, when the cache keeps the result (see ResponseCache.set), for the caller to send. */
  set(key: string, version: number, baseUrl: string, json: string): ResultBytes | undefined {
    return this.results.set(key, version, baseUrl, json);
  }

  caches(): { stats(): CacheStats }[] {
    return [this.results, this.keys];
  }
}
