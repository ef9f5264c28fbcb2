/** What one cache may hold: both bounds hold at once. */
export interface CacheLimits {
  maxEntries: number;
  maxBytes: number;
  /** The largest single entry kept (default: a sixteenth of maxBytes): one answer never takes a large share. */
  maxEntryBytes?: number;
}

/** A cache's size against its caps, for /metrics and the memory-bounds test. */
export interface CacheStats {
  name: string;
  entries: number;
  bytes: number;
  maxEntries: number;
  maxBytes: number;
}

/**
 * Bytes charged to every entry on top of its key and value: the Map's slot, the record below
 * and the key string's header. An estimate on the high side, so that an entry whose value is
 * empty (a search that matched nothing) still costs something and is evicted in its turn.
 */
export const ENTRY_OVERHEAD_BYTES = 160;

interface Entry<V> {
  value: V;
  cost: number;
}

/**
 * The one cache primitive: a least-recently-used map bounded by entry count and by an estimate
 * of the bytes it holds (key text, value, overhead), evicting the least recently used entries
 * until both bounds hold. Everything keyed by outside input that is kept between requests is
 * kept in one of these, so no client can make it grow past its caps.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  private readonly maxEntryBytes: number;
  /** The key last inserted or moved to the end of the map (the most recently used), if still there. */
  private newest: string | undefined;

  constructor(
    readonly name: string,
    private readonly limits: CacheLimits,
    /** The value's size in bytes (the key and ENTRY_OVERHEAD_BYTES are added here). */
    private readonly sizeOf: (value: V) => number,
  ) {
    if (!(limits.maxEntries >= 1 && limits.maxBytes >= 1)) throw new Error(`cache ${name}: caps must be at least 1`);
    this.maxEntryBytes = limits.maxEntryBytes ?? Math.floor(limits.maxBytes / 16);
  }

  /** The value, marked most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Moving the newest entry to the end changes nothing: a hot key asked again and again
    // (one URL, one API key) skips the delete and re-insert.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  /**
   * Keeps the value (unless it alone is over the entry cap), then evicts down to the caps.
   * `bytes`: the value's size when the caller knows it more cheaply than the cache's sizeOf.
   */
  set(key: string, value: V, bytes?: number): void {
    this.delete(key);
    const cost = key.length * 2 + ENTRY_OVERHEAD_BYTES + (bytes ?? this.sizeOf(value));
    if (cost > this.maxEntryBytes) return;
    this.entries.set(key, { value, cost });
    this.newest = key;
    this.bytes += cost;
    for (const [oldKey, old] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.delete(oldKey);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.cost;
    if (key === this.newest) this.newest = undefined;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.newest = undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): CacheStats {
    return { name: this.name, entries: this.entries.size, bytes: this.bytes, maxEntries: this.limits.maxEntries, maxBytes: this.limits.maxBytes };
  }
}
