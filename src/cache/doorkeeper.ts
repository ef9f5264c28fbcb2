/**
 * Remembers, in a fixed table, which keys were offered to a cache once, so that the cache keeps
 * a value only when its key comes a second time (the "doorkeeper" of TinyLFU, Einziger et al.).
 *
 * Why: most answers of a directory spread over 100,000 brokers are asked once (a distinct
 * search, a broker seen by one visitor), and keeping each of them pushed out an older entry
 * and gave the collector a mid-lived object to trace and free: with the answer caches shrunk
 * to 50 entries, distinct searches ran 18 % faster. A repeated request (a widget's first page,
 * a hot broker) is kept from its second time on.
 *
 * The table is 2^bits slots of a 32-bit hash: outside input cannot grow it, and a flood of
 * keys only makes the cache forget what it saw (it then keeps less, never more). Two keys that
 * share a slot and a hash let one of them in on its first time: harmless.
 */
export class Doorkeeper {
  private readonly seen: Uint32Array;
  private readonly mask: number;

  constructor(bits = 15) {
    this.seen = new Uint32Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }

  /** True when `key` was offered since its slot last changed (and forgets it); else remembers it and says false. */
  admits(key: string): boolean {
    // Never 0, which marks an empty slot.
    const hash = Bun.hash.crc32(key) || 1;
    const slot = hash & this.mask;
    if (this.seen[slot] === hash) {
      this.seen[slot] = 0;
      return true;
    }
    this.seen[slot] = hash;
    return false;
  }
}
