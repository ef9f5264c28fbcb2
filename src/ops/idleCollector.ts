import { collectFully } from "./memoryTarget.ts";

/**
 * Gives memory back when traffic stops. Under load the engine's collector lets the heap grow to
 * a multiple of what is live, and keeps those pages once the load is gone: at 100,000 brokers,
 * after the bench's scenarios, the server held 470–510 MB of anonymous memory of which about
 * 240 MB was still in use. After a busy stretch (at least `minRequests` since the last time),
 * the first check that finds no request arrived since the previous one runs one full
 * collection: tens of milliseconds, spent while nothing waits. A steady trickle never triggers
 * it (it is never idle for a whole period with that many requests behind it), and a busy
 * server is left to the engine.
 *
 * @example
 * const collector = new IdleCollector(() => inFlight.requestsBegun);
 * const timer = setInterval(() => collector.check(), IDLE_CHECK_MS);
 */
export class IdleCollector {
  #seenAtLastCheck = 0;
  #seenAtLastCollection = 0;

  constructor(
    /** Requests begun since start (a counter that only grows). */
    private readonly requestsBegun: () => number,
    private readonly collect: () => void = collectFully,
    private readonly minRequests = 1_000,
  ) {}

  /** Collects if the server was busy and has been idle since the last check; says whether it did. */
  check(): boolean {
    const begun = this.requestsBegun();
    const idle = begun === this.#seenAtLastCheck;
    this.#seenAtLastCheck = begun;
    if (!idle || begun - this.#seenAtLastCollection < this.minRequests) return false;
    this.#seenAtLastCollection = begun;
    this.collect();
    return true;
  }
}
