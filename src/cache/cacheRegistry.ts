import type { CacheStats } from "./boundedCache.ts";

interface Measurable {
  stats(): CacheStats;
}

/**
 * The caches of one server, listed so their sizes can be read without a route of their own:
 * /metrics renders them as gauges and the memory-bounds test reads them through Services.
 */
export class CacheRegistry {
  private readonly caches: Measurable[] = [];

  add(...caches: Measurable[]): void {
    this.caches.push(...caches);
  }

  stats(): CacheStats[] {
    return this.caches.map((cache) => cache.stats());
  }
}
