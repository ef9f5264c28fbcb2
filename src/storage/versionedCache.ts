/**
 * A bounded LRU of computed read results, valid for one version of the data. When the
 * version moves (any write, from this process or another sharing the database), the whole
 * cache is dropped: correctness never depends on guessing which entries a write touched.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, V>();
  private version = -1;

  constructor(private readonly maxEntries: number) {}

  get(key: string, currentVersion: number, compute: () => V): V {
    if (currentVersion !== this.version) {
      this.entries.clear();
      this.version = currentVersion;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-insert to mark as most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }
}
