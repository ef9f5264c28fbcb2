import { InMemoryRateLimiter, type RateDecision } from "./rateLimiter.ts";

/** Failed authentications one client address may make per minute before it is answered 429. */
export const AUTH_FAILURES_PER_MINUTE = 20;
/** Addresses remembered at most (past it idle ones, then the oldest, are forgotten): memory stays bounded under a spread flood. */
export const AUTH_FAILURE_ADDRESSES = 10_000;

/**
 * Slows floods of failed authentication (missing, malformed, unknown, revoked or expired
 * keys) per client address: past the budget they get 429 with Retry-After instead of 401.
 * Only failures count and only failures are refused: a valid key is never throttled here, so
 * behind a reverse proxy (where every client has the proxy's address) one client's flood does
 * not lock the others out. IPv6 addresses count per /64, the block one host usually holds.
 */
export class AuthFailureThrottle {
  private readonly limiter: InMemoryRateLimiter;

  constructor(maxAddresses = AUTH_FAILURE_ADDRESSES) {
    this.limiter = new InMemoryRateLimiter(maxAddresses);
  }

  /** Counts one failure from `address`; `allowed: false` means answer 429. */
  recordFailure(address: string, nowMs: number): RateDecision {
    return this.limiter.consume(addressBucket(address), AUTH_FAILURES_PER_MINUTE, nowMs);
  }

  get trackedAddresses(): number {
    return this.limiter.stats().entries;
  }
}

/** IPv4 (also IPv4-mapped IPv6) as is; other IPv6 addresses by their first four groups. */
export function addressBucket(address: string): string {
  if (!address.includes(":")) return address;
  if (address.toLowerCase().startsWith("::ffff:") && address.includes(".")) return address.slice(7);
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = address.includes("::") ? [...headGroups, ...Array(missing).fill("0"), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(":")}::/64`;
}
