/** Bits per offer of the window: about 1.4 % false positives when the filter is fullest (two bits a key). */
const BITS_PER_OFFER = 16;

/**
 * Remembers which keys were offered to a cache lately, so that the cache keeps a value only when
 * its key comes a second time within a window of offers: the "doorkeeper" of TinyLFU (Einziger
 * et al.), a Bloom filter with two bit positions per key, cleared every `window` offers. A key
 * asked again only long after, past many more distinct keys than the cache holds, would be
 * evicted before its next request anyway, so keeping it would only push out another. Every
 * offer counts toward the window, a key let in as well: counting only new keys, keys asked in a
 * cycle would fill the filter once and then be let in on every offer, never resetting it.
 *
 * Why: most answers of a directory spread over 100,000 brokers are asked once (a distinct
 * search, a broker seen by one visitor), and keeping each of them pushed out an older entry
 * and gave the collector a mid-lived object to trace and free: with the answer caches shrunk
 * to 50 entries, distinct searches ran 18 % faster. A repeated request (a widget's first page,
 * a hot broker) is kept from its second time on.
 *
 * Bounded whatever comes in: a flood of keys fills the bits and is then forgotten at the reset.
 * A key whose two bits other keys happened to set is let in on its first time (a false
 * positive, about 1.4 % when the filter is fullest): harmless. A Bloom filter never forgets one
 * key for another, so two keys asked in turn are both let in at their second time; a table of
 * one hash per slot, the first version of this, let such pairs overwrite each other forever
 * (a fifth of the brokers' review pages were never kept, their keys differing in a few digits).
 */
export class Doorkeeper {
  private readonly bits: Int32Array;
  private readonly mask: number;
  private offers = 0;

  /** `window`: the offers between resets (the filter takes 2 bytes an offer, rounded up to a power of two). */
  constructor(private readonly window: number) {
    const bits = 2 ** Math.max(10, Math.ceil(Math.log2(window * BITS_PER_OFFER)));
    this.bits = new Int32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** True when `key` was offered since the last reset; else remembers it and says false. */
  admits(key: string): boolean {
    if (++this.offers > this.window) {
      this.bits.fill(0);
      this.offers = 1;
    }
    const first = Bun.hash.xxHash32(key, 0x9e3779b1) & this.mask;
    const second = Bun.hash.xxHash32(key, 0x85ebca6b) & this.mask;
    if (this.has(first) && this.has(second)) return true;
    this.bits[first >>> 5]! |= 1 << (first & 31);
    this.bits[second >>> 5]! |= 1 << (second & 31);
    return false;
  }

  private has(bit: number): boolean {
    return (this.bits[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }
}
