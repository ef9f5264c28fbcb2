import { describe, expect, test } from "bun:test";
import { BoundedCache, ENTRY_OVERHEAD_BYTES } from "../../src/cache/boundedCache.ts";
import { estimateBytes } from "../../src/cache/estimateBytes.ts";
import { VersionedCache } from "../../src/storage/versionedCache.ts";

const textCache = (maxEntries: number, maxBytes: number) => new BoundedCache<string>("t", { maxEntries, maxBytes }, (v) => v.length * 2);

describe("BoundedCache", () => {
  test("holds at most maxEntries, evicting the least recently used", () => {
    const cache = textCache(3, 1_000_000);
    for (const k of ["a", "b", "c"]) cache.set(k, k);
    cache.get("a"); // a is now the most recent
    cache.set("d", "d");
    expect(cache.get("b")).toBeUndefined();
    expect(["a", "c", "d"].map((k) => cache.get(k))).toEqual(["a", "c", "d"]);
    expect(cache.stats()).toMatchObject({ entries: 3, maxEntries: 3 });
  });

  test("charges the key, the value and the overhead against maxBytes", () => {
    const cache = textCache(1_000_000, 100_000);
    cache.set("k".repeat(1_000), "");
    expect(cache.stats().bytes).toBe(2_000 + ENTRY_OVERHEAD_BYTES);
  });

  test("empty values are not free: a flood of keys with empty values stays under the byte cap", () => {
    const cache = textCache(1_000_000, 200_000);
    for (let i = 0; i < 10_000; i++) cache.set(`q|${i}-${"x".repeat(100)}`, "");
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(200_000);
    expect(stats.entries).toBeLessThan(1_000);
  });

  test("an entry over the per-entry cap is not kept", () => {
    const cache = textCache(10, 16_000);
    cache.set("big", "x".repeat(1_000));
    expect(cache.get("big")).toBeUndefined();
    expect(cache.stats().bytes).toBe(0);
  });

  test("replacing a key does not count it twice", () => {
    const cache = textCache(10, 100_000);
    cache.set("k", "abc");
    cache.set("k", "abcdef");
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 2 + ENTRY_OVERHEAD_BYTES + 12 });
  });
});

/** The rule stated plainly: a Map in recency order (a hit moves its key to the end), evicted from the front. */
class ReferenceLru {
  readonly entries = new Map<string, { value: string; cost: number }>();
  bytes = 0;
  constructor(private readonly maxEntries: number, private readonly maxBytes: number) {}
  get(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }
  set(key: string, value: string) {
    this.delete(key);
    const cost = key.length * 2 + ENTRY_OVERHEAD_BYTES + value.length * 2;
    if (cost > Math.floor(this.maxBytes / 16)) return;
    this.entries.set(key, { value, cost });
    this.bytes += cost;
    for (const [oldKey] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(oldKey);
    }
  }
  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.cost;
  }
}

test("BoundedCache evicts exactly as a recency-ordered map would, over 20,000 random operations", () => {
  let seed = 2026;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 1;
    return seed % n;
  };
  const cache = textCache(40, 16 * 1_000);
  const reference = new ReferenceLru(40, 16 * 1_000);
  for (let i = 0; i < 20_000; i++) {
    const key = `k${random(120)}`;
    const op = random(10);
    if (op < 5) expect(cache.get(key)).toBe(reference.get(key));
    else if (op < 9) {
      const value = "v".repeat(random(60));
      cache.set(key, value);
      reference.set(key, value);
    } else {
      cache.delete(key);
      reference.delete(key);
    }
    expect(cache.stats()).toMatchObject({ entries: reference.entries.size, bytes: reference.bytes });
  }
  // Same survivors, and the same order of eviction from here on.
  for (const key of [...reference.entries.keys()]) expect(cache.get(key)).toBe(reference.get(key));
  for (let i = 0; i < 40; i++) {
    cache.set(`fresh${i}`, "");
    reference.set(`fresh${i}`, "");
    expect([...reference.entries.keys()].every((key) => cache.get(key) !== undefined || key.startsWith("fresh"))).toBe(true);
  }
});

describe("a second-request cache (Doorkeeper)", () => {
  const secondRequest = () => new BoundedCache<string>("s", { maxEntries: 100, maxBytes: 1_000_000, secondRequest: true }, (v) => v.length * 2);

  test("keeps a value from its key's second offer on; a held key is replaced at once", () => {
    const cache = secondRequest();
    cache.set("a", "one");
    expect(cache.get("a")).toBeUndefined();
    cache.set("a", "one");
    expect(cache.get("a")).toBe("one");
    cache.set("a", "two");
    expect(cache.get("a")).toBe("two");
  });

  test("setMade makes the value only when it is kept, and sizeOf is asked only then", () => {
    const cache = secondRequest();
    let made = 0;
    let sized = 0;
    const make = () => (made++, "answer");
    const sizeOf = (v: string) => (sized++, v.length * 2);
    expect(cache.setMade("k", make, sizeOf)).toBeUndefined();
    expect([made, sized, cache.get("k")]).toEqual([0, 0, undefined]);
    // The value made is handed back, for the caller to use instead of making it again.
    expect(cache.setMade("k", make, sizeOf)).toBe("answer");
    expect([made, sized, cache.get("k")]).toEqual([1, 1, "answer"]);
    cache.set("refused", "x", sizeOf);
    expect(sized).toBe(1);
  });

  test("a flood of keys offered once keeps almost nothing (a false positive now and then), within the caps", () => {
    const cache = new BoundedCache<string>("s", { maxEntries: 1_000, maxBytes: 1_000_000, secondRequest: true }, (v) => v.length * 2);
    for (let i = 0; i < 50_500; i++) cache.set(`flood-${i}`, "x");
    expect(cache.stats().entries).toBeLessThan(1_000); // about 1 % at the filter's fullest, never the flood
    // The filter starts afresh every 3,000 offers (three times the entry cap): a key offered
    // again within that window is kept, one offered again long after is not.
    cache.set("flood-50499", "x");
    expect(cache.get("flood-50499")).toBe("x");
    cache.set("flood-40000", "x");
    expect(cache.get("flood-40000")).toBeUndefined();
  });

  test("keys asked in turn, and keys that differ in a few digits, are each kept at their second offer", () => {
    const cache = new BoundedCache<string>("s", { maxEntries: 10_000, maxBytes: 10_000_000, secondRequest: true }, (v) => v.length * 2);
    // The shape of REST's cache keys for one route: only the id differs.
    const keys = Array.from({ length: 941 }, (_, i) => `GET /api/v1/reviews/{brokerId} {"brokerId":"${i + 1}","sort":"newest","page":1,"limit":20}`);
    for (let round = 0; round < 2; round++) for (const key of keys) cache.set(key, "page");
    expect(keys.filter((key) => cache.get(key) === undefined)).toEqual([]);
  });
});

describe("VersionedCache", () => {
  test("drops everything when the version moves, and never keeps a value computed for an old version", () => {
    const cache = new VersionedCache<string>("v", { maxEntries: 10, maxBytes: 100_000 });
    expect(cache.get("a", 1, () => "one")).toBe("one");
    expect(cache.get("a", 1, () => "other")).toBe("one");
    expect(cache.get("a", 2, () => "two")).toBe("two");
    cache.store("b", 1, "stale");
    expect(cache.lookup("b", 2)).toBeUndefined();
    // A value for an old version is not even made.
    expect(cache.storeMade("c", 1, () => "stale")).toBeUndefined();
    expect(cache.storeMade("c", 2, () => "fresh")).toBe("fresh");
  });
});

test("estimateBytes counts strings, typed arrays, maps and nesting", () => {
  expect(estimateBytes("x".repeat(1_000))).toBeGreaterThanOrEqual(2_000);
  expect(estimateBytes(new Int32Array(1_000))).toBeGreaterThanOrEqual(4_000);
  expect(estimateBytes(new Map([[1, ["a".repeat(500)]]]))).toBeGreaterThanOrEqual(1_000);
  expect(estimateBytes({ items: [{ name: "y".repeat(300) }], total: 1 })).toBeGreaterThanOrEqual(600);
  expect(estimateBytes(new Int32Array(0))).toBeGreaterThan(0);
});
