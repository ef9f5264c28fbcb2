import { SlotCounter } from "../../cache/slotCounter.ts";

/**
 * Addresses with uploads in progress that are counted at most: more at once means the server is
 * past what one instance serves, and a newcomer is told to come back (503) rather than the
 * table growing with whatever addresses a flood brings. Each entry lives only while its
 * address has an upload in progress.
 */
export const MAX_COUNTED_CLIENTS = 10_000;

export type SlotRefusal = { code: "too_many_uploads" | "server_busy"; message: string };

/**
 * Requests with a body in progress per client address, capped (MAX_UPLOADS_PER_CLIENT): such a
 * request holds its connection as long as its client takes to send the body (up to the body
 * deadline), and one client holding many (a body sent a byte at a time) must not exhaust the
 * server's descriptors. The address is the socket's peer: behind a reverse proxy, the
 * proxy's, shared by all its clients (see the manual, security page). An IPv6 client counts by its /64,
 * the block one subscriber gets; an IPv4-mapped IPv6 address as the IPv4 address it is.
 *
 * The address is asked for only when the cap could be reached: while fewer requests with a
 * body than the cap are in progress in all, no client can be over it, and a request is taken
 * uncounted. Asking Bun for a peer address is a system call (getpeername) per request: about a
 * tenth of an MCP call's time on a bare server. The request that would make the cap reachable
 * first has every uncounted one counted by its address (they are all in progress, their
 * sockets open), so whenever as many as the cap are in progress, each is counted: the cap
 * holds exactly as if every request had been counted on arrival.
 */
export class ClientSlots {
  private readonly slots: SlotCounter;
  /** Requests with a body in progress, counted by address or not. */
  private inProgress = 0;
  /** Those not counted by address yet: fewer than the cap (see take). */
  private readonly uncounted = new Set<Uncounted>();

  constructor(
    private readonly maxPerClient: number,
    maxClients = MAX_COUNTED_CLIENTS,
  ) {
    this.slots = new SlotCounter(maxPerClient, maxClients);
  }

  /**
   * Takes a slot for a request from the address `addressOf` gives (asked for only when
   * needed, then or while the request is in progress): the function that gives it back (call
   * it once), or why not.
   */
  take(addressOf: () => string | undefined): (() => void) | SlotRefusal {
    if (this.inProgress < this.maxPerClient) {
      const entry: Uncounted = { addressOf, release: undefined };
      this.uncounted.add(entry);
      return this.held(() => (entry.release ? entry.release() : this.uncounted.delete(entry)));
    }
    this.countUncounted();
    const slot = this.counted(addressOf());
    return typeof slot === "function" ? this.held(slot) : slot;
  }

  /** Addresses counted now (with requests in progress that were counted by address). */
  get clients(): number {
    return this.slots.buckets;
  }

  /** A request in progress, until the function returned is called (once). */
  private held(release: () => unknown): () => void {
    this.inProgress++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.inProgress--;
      release();
    };
  }

  /**
   * Counts every request taken uncounted by its address. No client can be refused here: fewer
   * than the cap were in progress in all. Past the table's bound (a cap set above it), one is
   * left holding nothing, as a request whose socket is gone.
   */
  private countUncounted(): void {
    for (const entry of this.uncounted) {
      const slot = this.counted(entry.addressOf());
      entry.release = typeof slot === "function" ? slot : noop;
    }
    this.uncounted.clear();
  }

  private counted(address: string | undefined): (() => void) | SlotRefusal {
    // No address: the socket is already gone, and nothing is held for it.
    if (address === undefined) return noop;
    const slot = this.slots.take(clientOf(address));
    if (slot === "bucket-full") {
      return { code: "too_many_uploads", message: `Too many uploads in progress from your address (${this.slots.perBucket} requests with a body at most at once); retry once some have finished.` };
    }
    if (slot === "too-many-buckets") return { code: "server_busy", message: "The server is answering too many clients at once; retry shortly." };
    return slot;
  }
}

/** A request taken without its address; `release` is its slot once it was counted. */
interface Uncounted {
  addressOf: () => string | undefined;
  release: (() => void) | undefined;
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
