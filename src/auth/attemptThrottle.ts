/**
 * Counts failures per client address in fixed windows and says when an address must wait:
 * used for console sign-in attempts with bad tokens. Memory is bounded: at most `maxAddresses`
 * entries, the oldest dropped first when a new address arrives at the cap (a Map keeps
 * insertion order), so a flood of addresses costs a fixed amount of memory, not more.
 */
export class AttemptThrottle {
  private readonly failures = new Map<string, { count: number; windowEndsAt: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxAddresses = 10_000,
  ) {}

  /** Seconds the address must wait before trying again, or 0 when it may try now. */
  retryAfterSeconds(address: string, now: number): number {
    const entry = this.failures.get(address);
    if (!entry || now >= entry.windowEndsAt || entry.count < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((entry.windowEndsAt - now) / 1000));
  }

  recordFailure(address: string, now: number): void {
    const entry = this.failures.get(address);
    if (entry && now < entry.windowEndsAt) {
      entry.count += 1;
      return;
    }
    // A new or renewed entry goes to the end of the insertion order.
    this.failures.delete(address);
    if (this.failures.size >= this.maxAddresses) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(address, { count: 1, windowEndsAt: now + this.windowMs });
  }

  get size(): number {
    return this.failures.size;
  }
}
