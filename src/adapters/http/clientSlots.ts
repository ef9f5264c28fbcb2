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
 */
export class ClientSlots {
  private readonly slots: SlotCounter;

  constructor(maxPerClient: number, maxClients = MAX_COUNTED_CLIENTS) {
    this.slots = new SlotCounter(maxPerClient, maxClients);
  }

  /** Takes a slot for the address: the function that gives it back (call it once), or why not. */
  take(address: string | undefined): (() => void) | SlotRefusal {
    // No address: the socket is already gone, and nothing is held for it.
    if (address === undefined) return noop;
    const slot = this.slots.take(clientOf(address));
    if (slot === "bucket-full") {
      return { code: "too_many_uploads", message: `Too many uploads in progress from your address (${this.slots.perBucket} requests with a body at most at once); retry once some have finished.` };
    }
    if (slot === "too-many-buckets") return { code: "server_busy", message: "The server is answering too many clients at once; retry shortly." };
    return slot;
  }

  /** Addresses with an upload in progress now. */
  get clients(): number {
    return this.slots.buckets;
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
