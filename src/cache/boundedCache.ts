import { Doorkeeper } from "./doorkeeper.ts";

/** What one cache may hold: both bounds hold at once. */
export interface CacheLimits {
  maxEntries: number;
  maxBytes: number;
  /** The largest single entry kept (default: a sixteenth of maxBytes): one answer never takes a large share. */
  maxEntryBytes?: number;
  /**
   * Keep a value only when its key is offered a second time within 3 × maxEntries offers (see
   * Doorkeeper): for caches of answers to outside requests, most of which are never asked again.
   */
  secondRequest?: boolean;
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

/** An entry and its neighbours in recency order (toward the most and the least recently used). */
interface Entry<V> {
  key: string;
  value: V;
  cost: number;
  newer: Entry<V> | undefined;
  older: Entry<V> | undefined;
}

/**
 * The one cache primitive: a least-recently-used map bounded by entry count and by an estimate
 * of the bytes it holds (key text, value, overhead), evicting the least recently used entries
 * until both bounds hold. Everything keyed by outside input that is kept between requests is
 * kept in one of these, so no client can make it grow past its caps.
 *
 * Recency is a doubly linked list through the entries, not the Map's insertion order: a hit
 * relinks two pointers instead of deleting and re-inserting its key, and eviction takes the
 * list's tail instead of iterating the Map from its start. With insertion order, every hit
 * and eviction left a deleted slot at the front of the Map that the next eviction's iterator
 * had to step over; on the uncached search path (three caches, each evicting on every request)
 * that cost a sixth of the request (CPU profile, 100,000 brokers).
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  private readonly maxEntryBytes: number;
  private readonly doorkeeper: Doorkeeper | undefined;
  /** The most recently used entry (the head of the recency list) and the least (its tail). */
  private newest: Entry<V> | undefined;
  private oldest: Entry<V> | undefined;

  constructor(
    readonly name: string,
    private readonly limits: CacheLimits,
    /** The value's size in bytes (the key and ENTRY_OVERHEAD_BYTES are added here). */
    private readonly sizeOf: (value: V) => number,
  ) {
    if (!(limits.maxEntries >= 1 && limits.maxBytes >= 1)) throw new Error(`cache ${name}: caps must be at least 1`);
    this.maxEntryBytes = limits.maxEntryBytes ?? Math.floor(limits.maxBytes / 16);
    // A window of three times the entries: with one, distinct searches whose folded input
    // repeats 10,000–30,000 requests apart were no longer kept and ran 30 % slower; with three,
    // detail misses over 20,000 brokers churn less than with the slot table this replaced.
    this.doorkeeper = limits.secondRequest ? new Doorkeeper(3 * limits.maxEntries) : undefined;
  }

  /** The value, marked most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry !== this.newest) {
      this.unlink(entry);
      this.linkNewest(entry);
    }
    return entry.value;
  }

  /**
   * Keeps the value (unless it alone is over the entry cap, or the key comes for the first time
   * to a second-request cache), then evicts down to the caps. A key already held is replaced.
   * `sizeOf`: the value's size when the caller knows a cheaper way than the cache's own; like
   * it, asked only for a value that is kept.
   */
  set<T extends V>(key: string, value: T, sizeOf?: (value: T) => number): void {
    if (this.admits(key)) this.keep(key, value, sizeOf);
  }

  /**
   * As set, but the value is made only when it will be kept: for values that cost something to
   * make (an answer's bytes), which a second-request cache refuses on most first offers.
   * Returns the value when it was made (kept, or over the entry cap), so the caller can use it
   * rather than make it again (REST sends the bytes it keeps instead of encoding the text twice).
   */
  setMade<T extends V>(key: string, make: () => T, sizeOf?: (value: T) => number): T | undefined {
    if (!this.admits(key)) return undefined;
    const value = make();
    this.keep(key, value, sizeOf);
    return value;
  }

  /** Whether a value for `key` is to be kept: a held key (dropped here, to be replaced) always is. */
  private admits(key: string): boolean {
    const held = this.entries.get(key);
    if (held !== undefined) {
      this.remove(held);
      return true;
    }
    return this.doorkeeper === undefined || this.doorkeeper.admits(key);
  }

  private keep<T extends V>(key: string, value: T, sizeOf: ((value: T) => number) | undefined): void {
    const cost = key.length * 2 + ENTRY_OVERHEAD_BYTES + (sizeOf ?? this.sizeOf)(value);
    if (cost > this.maxEntryBytes) return;
    const entry: Entry<V> = { key, value, cost, newer: undefined, older: undefined };
    this.entries.set(key, entry);
    this.linkNewest(entry);
    this.bytes += cost;
    while (this.oldest !== undefined && (this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes)) {
      this.remove(this.oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) this.remove(entry);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.newest = undefined;
    this.oldest = undefined;
  }

  private remove(entry: Entry<V>): void {
    this.entries.delete(entry.key);
    this.unlink(entry);
    this.bytes -= entry.cost;
  }

  private linkNewest(entry: Entry<V>): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<V>): void {
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    entry.newer = undefined;
    entry.older = undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): CacheStats {
    return { name: this.name, entries: this.entries.size, bytes: this.bytes, maxEntries: this.limits.maxEntries, maxBytes: this.limits.maxBytes };
  }
}
