import { BoundedCache, type CacheLimits, type CacheStats } from "../cache/boundedCache.ts";
import { estimateBytes } from "../cache/estimateBytes.ts";

/**
 * A bounded LRU of computed read results, valid for one version of the data. When the
 * version moves (any write, from this process or another sharing the database), the whole
 * cache is dropped: correctness never depends on guessing which entries a write touched.
 */
export class VersionedCache<V> {
  private readonly entries: BoundedCache<V>;
  private version = -1;

  constructor(name: string, limits: CacheLimits, sizeOf: (value: V) => number = estimateBytes) {
    this.entries = new BoundedCache(name, limits, sizeOf);
  }

  /**
   * The cached value for this version, else `compute()` (kept unless it is undefined). `sizeOf`:
   * a cheaper size estimate for this kind of value than the cache's general one.
   */
  get<T extends V>(key: string, currentVersion: number, compute: () => T, sizeOf?: (value: Exclude<T, undefined>) => number): T {
    const hit = this.lookup(key, currentVersion);
    if (hit !== undefined) return hit as T;
    const value = compute();
    if (value !== undefined) this.entries.set(key, value as Exclude<T, undefined>, sizeOf);
    return value;
  }

  lookup(key: string, currentVersion: number): V | undefined {
    if (currentVersion !== this.version) {
      this.entries.clear();
      this.version = currentVersion;
    }
    return this.entries.get(key);
  }

  /** Keeps a value computed for `version`; dropped at once if the version has moved since. */
  store(key: string, version: number, value: V): void {
    if (version !== this.version) return;
    this.entries.set(key, value);
  }

  /** As store, but the value is made only if it is kept (see BoundedCache.setMade, whose answer this returns). */
  storeMade<T extends V>(key: string, version: number, make: () => T): T | undefined {
    if (version !== this.version) return undefined;
    return this.entries.setMade(key, make);
  }

  /** Drops everything now, and whatever a computation begun before this call would store. */
  clear(): void {
    this.entries.clear();
    this.version = -1;
  }

  stats(): CacheStats {
    return this.entries.stats();
  }
}
