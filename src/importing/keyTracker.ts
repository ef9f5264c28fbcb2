import { MAX_TRACKED_KEYS } from "./importLimits.ts";

const INITIAL_CAPACITY = 1 << 12;
const MAX_LOAD = 0.75;

/**
 * The keys seen so far in a file and the line each was last on, to report a key given twice.
 * A million review ids as strings in a Map would take hundreds of MB, so each key is kept as a
 * 64-bit fingerprint (two 32-bit hashes) in typed arrays, 12 bytes a slot. Two different keys
 * share a fingerprint with odds of about 1 in 10^7 for a file of a million keys; that would
 * report a duplicate that is not one, and changes nothing stored (the writer upserts by key).
 * Past MAX_TRACKED_KEYS no more keys are remembered (`full`); the import goes on.
 */
export class KeyTracker {
  private capacity = INITIAL_CAPACITY;
  private first = new Uint32Array(INITIAL_CAPACITY);
  private second = new Uint32Array(INITIAL_CAPACITY);
  /** The line each slot's key was last on; 0 marks an empty slot. */
  private lines = new Uint32Array(INITIAL_CAPACITY);
  private size = 0;
  full = false;

  /** The line the key was last seen on (then this line replaces it), or undefined the first time. */
  seen(key: string, line: number): number | undefined {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 + c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    return this.find(h1 >>> 0, h2 >>> 0, Math.max(1, Math.min(line, 0xffffffff)));
  }

  private find(h1: number, h2: number, line: number): number | undefined {
    const mask = this.capacity - 1;
    for (let slot = h1 & mask; ; slot = (slot + 1) & mask) {
      const earlier = this.lines[slot]!;
      if (earlier === 0) break;
      if (this.first[slot] === h1 && this.second[slot] === h2) {
        this.lines[slot] = line;
        return earlier;
      }
    }
    if (this.size >= MAX_TRACKED_KEYS) {
      this.full = true;
      return undefined;
    }
    if (this.size + 1 > this.capacity * MAX_LOAD) this.grow();
    this.insert(h1, h2, line);
    this.size++;
    return undefined;
  }

  private insert(h1: number, h2: number, line: number) {
    const mask = this.capacity - 1;
    let slot = h1 & mask;
    while (this.lines[slot] !== 0) slot = (slot + 1) & mask;
    this.first[slot] = h1;
    this.second[slot] = h2;
    this.lines[slot] = line;
  }

  private grow() {
    const { first, second, lines } = this;
    this.capacity *= 2;
    this.first = new Uint32Array(this.capacity);
    this.second = new Uint32Array(this.capacity);
    this.lines = new Uint32Array(this.capacity);
    for (let slot = 0; slot < lines.length; slot++) if (lines[slot] !== 0) this.insert(first[slot]!, second[slot]!, lines[slot]!);
  }
}
