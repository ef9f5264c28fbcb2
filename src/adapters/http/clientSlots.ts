import { SlotCounter } from "../../cache/slotCounter.ts";

/**
 * Addresses with uploads in progress that are counted at most: more at once means the server is
 * past what one instance serves, and a newcomer is told to come back (503) rather than the
 * table growing with whatever addresses a flood brings. Each entry lives only while its
 * address has an upload in progress.
 */
export const MAX_COUNTED_CLIENTS = 10_000;

export type SlotRefusal = { code: "too_many_uploads" | "server_busy"; message: string };

/** Where a request came from, asked only when it must be counted by address (server.requestIP). */
export type SlotClient = { readonly clientAddress?: string };

/** A body in progress not counted by address yet; `release` is its address's slot once it is. */
interface Uncounted {
  client: SlotClient;
  release: (() => void) | undefined;
}

/**
 * Requests with a body in progress per client address, capped (MAX_UPLOADS_PER_CLIENT): such a
 * request holds its connection as long as its client takes to send the body (up to the body
 * deadline), and one client holding many (a body sent a byte at a time) must not exhaust the
 * server's descriptors. The address is the socket's peer: behind a reverse proxy, the
 * proxy's, shared by all its clients (see the manual, security page). An IPv6 client counts by its /64,
 * the block one subscriber gets; an IPv4-mapped IPv6 address as the IPv4 address it is.
 *
 * An address is asked for only when it can matter: while fewer bodies are in progress in all
 * than an address may have (and than addresses are counted), no address can be at either cap,
 * so those bodies are counted without one. The body that would reach that number first has every
 * body in progress counted by its address, then is counted (or refused) by its own, exactly as if
 * each had been counted on arrival; the same refusals, at the same moments. Asking every request
 * with a body for its address (a system call and an object) cost about a sixth of an MCP call
 * (39 → 32 µs of server CPU, in turns: the manual's performance page, 2026-11-28).
 */
export class ClientSlots {
  private readonly slots: SlotCounter;
  private readonly uncounted = new Set<Uncounted>();
  /** Below this many bodies in progress, none is counted by address (see above). */
  private readonly threshold: number;

  constructor(maxPerClient: number, maxClients = MAX_COUNTED_CLIENTS) {
    this.slots = new SlotCounter(maxPerClient, maxClients);
    this.threshold = Math.min(maxPerClient, maxClients);
  }

  /** Takes a slot for the client: the function that gives it back (call it once; later calls do nothing), or why not. */
  take(client: SlotClient): (() => void) | SlotRefusal {
    if (this.inProgress < this.threshold) {
      const entry: Uncounted = { client, release: undefined };
      this.uncounted.add(entry);
      return () => {
        if (!this.uncounted.delete(entry)) entry.release?.();
        entry.release = undefined;
      };
    }
    this.countAllByAddress();
    return this.takeFor(client.clientAddress);
  }

  /**
   * Counts every body in progress by its address. Fewer than `threshold` of them: no address
   * reaches a cap, so none is refused here (a refusal would mean the invariant broke; that
   * body is then left uncounted rather than cut).
   */
  private countAllByAddress(): void {
    for (const entry of this.uncounted) {
      const slot = this.takeFor(entry.client.clientAddress);
      entry.release = typeof slot === "function" ? slot : undefined;
    }
    this.uncounted.clear();
  }

  private takeFor(address: string | undefined): (() => void) | SlotRefusal {
    // No address: the socket is already gone, and nothing is held for it.
    if (address === undefined) return noop;
    const slot = this.slots.take(clientOf(address));
    if (slot === "bucket-full") {
      return { code: "too_many_uploads", message: `Too many uploads in progress from your address (${this.slots.perBucket} requests with a body at most at once); retry once some have finished.` };
    }
    if (slot === "too-many-buckets") return { code: "server_busy", message: "The server is answering too many clients at once; retry shortly." };
    return slot;
  }

  /** Addresses counted now: those with a body in progress, once that many bodies are (see above). */
  get clients(): number {
    return this.slots.buckets;
  }

  /** Bodies in progress now. */
  get inProgress(): number {
    return this.uncounted.size + this.slots.inUse;
  }
}

const noop = () => {};

/** The client an address counts as: itself (IPv4), or its /64 (IPv6). */
export function clientOf(address: string): string {
  if (!address.includes(":")) return address;
  const lower = address.toLowerCase();
  if (lower.startsWith("::ffff:") && lower.includes(".")) return lower.slice("::ffff:".length);
  const [head = "", tail] = lower.split("%")[0]!.split("::");
  const groups = head === "" ? [] : head.split(":");
  // "a:b::c": the groups after "::" come last; fewer than four before it means zeros follow.
  if (tail !== undefined) {
    const after = tail === "" ? [] : tail.split(":");
    while (groups.length + after.length < 8) groups.push("0");
    groups.push(...after);
  }
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}
