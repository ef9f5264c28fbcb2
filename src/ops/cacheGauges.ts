import type { CacheStats } from "../cache/boundedCache.ts";
import { escapeLabel } from "./httpMetrics.ts";

/** Each cache's size next to its caps, in the Prometheus text format (one series per cache). */
export function cacheGauges(stats: readonly CacheStats[]): string[] {
  const family = (name: string, help: string, value: (s: CacheStats) => number) => [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} gauge`,
    ...stats.map((s) => `${name}{cache="${escapeLabel(s.name)}"} ${value(s)}`),
  ];
  return [
    ...family("broker_directory_cache_entries", "Entries held by each in-memory cache.", (s) => s.entries),
    ...family("broker_directory_cache_max_entries", "Entry cap of each in-memory cache.", (s) => s.maxEntries),
    ...family("broker_directory_cache_bytes", "Estimated bytes held by each in-memory cache (keys, values, overhead).", (s) => s.bytes),
    ...family("broker_directory_cache_max_bytes", "Byte cap of each in-memory cache.", (s) => s.maxBytes),
  ];
}
