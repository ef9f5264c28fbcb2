/**
 * The `count` smallest of `keys`, ascending (all of them when there are fewer). With distinct
 * keys this is exactly the first `count` of a full sort. A page wants the first twenty of
 * 40,000 matches: a bounded max-heap picks them in one pass instead of sorting everything.
 * `keys` is scratch: it may be left reordered.
 */
export function smallestSorted(keys: Float64Array, count: number): Float64Array {
  if (count <= 0) return new Float64Array(0);
  // Past a quarter of the keys, the engine's native sort (in place) is as quick as the heap.
  if (count * 4 >= keys.length) return keys.sort().subarray(0, Math.min(count, keys.length));
  return smallestHeap(keys, count).sort();
}

/**
 * The `count`-th smallest of `values` (the largest when there are fewer), `values` left as they
 * are: a bound that at least `count` of them are at or below. Infinity for a count of 0.
 */
export function countthSmallest(values: Float64Array, count: number): number {
  if (count <= 0 || values.length === 0) return Number.POSITIVE_INFINITY;
  if (count >= values.length) {
    let largest = values[0]!;
    for (let i = 1; i < values.length; i++) if (values[i]! > largest) largest = values[i]!;
    return largest;
  }
  return smallestHeap(values, count)[0]!;
}

/** The `count` (< keys.length) smallest keys as a max-heap: the largest of them at the root. */
function smallestHeap(keys: Float64Array, count: number): Float64Array {
  const heap = new Float64Array(count);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (size < count) {
      // Sift up: the largest kept key stays at the root.
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent]! >= key) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = key;
    } else if (key < heap[0]!) {
      // Replace the root and sift down.
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) break;
        const right = left + 1;
        const child = right < size && heap[right]! > heap[left]! ? right : left;
        if (heap[child]! <= key) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = key;
    }
  }
  return heap;
}
