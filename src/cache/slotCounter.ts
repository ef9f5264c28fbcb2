/**
 * Things in progress counted per bucket (a client address, a key), each bucket capped, and the
 * number of buckets capped too: the buckets come from outside, so the table never grows past
 * `maxBuckets` whatever a flood brings. A bucket lives only while something of it is in progress.
 *
 * @example
 * const uploads = new SlotCounter(256, 10_000);
 * const slot = uploads.take("203.0.113.7");
 * if (typeof slot === "string") return refuse(slot); // "bucket-full" or "too-many-buckets"
 * try { await work(); } finally { slot(); }
 */
export class SlotCounter {
  private readonly counts = new Map<string, number>();
  /** Slots taken and not given back, over all buckets. */
  private taken = 0;

  constructor(
    readonly perBucket: number,
    readonly maxBuckets: number,
  ) {}

  /** A slot for `bucket`: the function that gives it back (once; later calls do nothing), or why not. */
  take(bucket: string): (() => void) | "bucket-full" | "too-many-buckets" {
    const count = this.counts.get(bucket) ?? 0;
    if (count >= this.perBucket) return "bucket-full";
    if (count === 0 && this.counts.size >= this.maxBuckets) return "too-many-buckets";
    this.counts.set(bucket, count + 1);
    this.taken++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.taken--;
      const left = (this.counts.get(bucket) ?? 1) - 1;
      if (left > 0) this.counts.set(bucket, left);
      else this.counts.delete(bucket);
    };
  }

  /** Buckets with something in progress now. */
  get buckets(): number {
    return this.counts.size;
  }

  /** Slots in use now, over all buckets. */
  get inUse(): number {
    return this.taken;
  }
}
