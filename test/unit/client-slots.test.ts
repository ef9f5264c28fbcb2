/**
 * The per-address cap on requests in progress (ClientSlots): a slot per request, given back
 * once; an IPv6 client counted by its /64; a table of addresses that never grows past its
 * bound, whatever addresses a flood brings; and addresses asked for only once enough bodies are
 * in progress for one to reach a cap, with the same answers as counting each on arrival.
 */
import { expect, test } from "bun:test";
import { SlotCounter } from "../../src/cache/slotCounter.ts";
import { ClientSlots, clientOf, type SlotClient } from "../../src/adapters/http/clientSlots.ts";

const from = (clientAddress: string | undefined): SlotClient => ({ clientAddress });

test("an address has its cap of uploads in progress; a slot given back (once) makes room again", () => {
  const slots = new ClientSlots(2);
  const first = slots.take(from("203.0.113.7"));
  const second = slots.take(from("203.0.113.7"));
  expect(slots.take(from("203.0.113.7"))).toMatchObject({ code: "too_many_uploads" });
  expect(typeof slots.take(from("203.0.113.8"))).toBe("function");
  if (typeof first !== "function" || typeof second !== "function") throw new Error("refused below the cap");
  first();
  first(); // a second call gives nothing back twice
  expect(slots.inProgress).toBe(2);
  expect(typeof slots.take(from("203.0.113.7"))).toBe("function");
  expect(slots.take(from("203.0.113.7"))).toMatchObject({ code: "too_many_uploads" });
});

test("the table of addresses is bounded: a new address past it is told the server is busy (503)", () => {
  const slots = new ClientSlots(5, 3);
  const held = ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map((address) => slots.take(from(address)));
  expect(slots.take(from("192.0.2.4"))).toMatchObject({ code: "server_busy" });
  expect(typeof slots.take(from("192.0.2.1"))).toBe("function"); // one already counted still may
  expect(slots.clients).toBe(3);
  for (const release of held) if (typeof release === "function") release();
  expect(typeof slots.take(from("192.0.2.4"))).toBe("function");
  // 192.0.2.1 (its second slot, counted by address) and 192.0.2.4 (two in progress: not yet asked).
  expect(slots.inProgress).toBe(2);
  expect(slots.clients).toBe(1);
});

test("an address is asked for only once as many bodies are in progress as one address may have", () => {
  const slots = new ClientSlots(3);
  let lookups = 0;
  const counted = (address: string): SlotClient => ({
    get clientAddress() {
      lookups++;
      return address;
    },
  });
  const held = [slots.take(counted("198.51.100.9")), slots.take(counted("198.51.100.9")), slots.take(counted("198.51.100.9"))];
  expect(lookups).toBe(0);
  // The fourth would be one too many for that address: every body is counted by it, and it is refused.
  expect(slots.take(counted("198.51.100.9"))).toMatchObject({ code: "too_many_uploads" });
  expect(lookups).toBe(4);
  for (const release of held) if (typeof release === "function") release();
  expect(slots.inProgress).toBe(0);
  expect(slots.clients).toBe(0);
  expect(typeof slots.take(counted("198.51.100.9"))).toBe("function");
  expect(lookups).toBe(4);
});

test("a client whose socket is gone holds nothing, counted or not", () => {
  const slots = new ClientSlots(1);
  expect(typeof slots.take(from("203.0.113.1"))).toBe("function");
  expect(typeof slots.take(from(undefined))).toBe("function");
  expect(slots.clients).toBe(1);
});

test("the same answers as counting every body by its address on arrival, in any order of arrivals and ends", () => {
  // A reference that asks every address at once (what ClientSlots did before), against ClientSlots, step by step.
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (const [perClient, maxClients] of [[3, 2], [2, 5], [4, 4], [1, 3]] as const) {
    const reference = new SlotCounter(perClient, maxClients);
    const slots = new ClientSlots(perClient, maxClients);
    const held: { mine: () => void; theirs: () => void }[] = [];
    const addresses = ["192.0.2.1", "192.0.2.2", "192.0.2.3", "2001:db8::1", "2001:db8::2", "::ffff:192.0.2.1"];
    for (let step = 0; step < 3_000; step++) {
      if (held.length > 0 && random(5) < 2) {
        const [slot] = held.splice(random(held.length), 1);
        slot!.mine();
        slot!.theirs();
        continue;
      }
      const address = addresses[random(addresses.length)]!;
      const mine = slots.take(from(address));
      const theirs = reference.take(clientOf(address));
      const expected = theirs === "bucket-full" ? "too_many_uploads" : theirs === "too-many-buckets" ? "server_busy" : "slot";
      expect(typeof mine === "function" ? "slot" : mine.code).toBe(expected);
      if (typeof mine === "function" && typeof theirs === "function") held.push({ mine, theirs });
      expect(slots.inProgress).toBe(held.length);
    }
  }
});

test("an IPv6 client counts by its /64, an IPv4-mapped address as IPv4", () => {
  expect(clientOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
  expect(clientOf("2001:DB8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
  expect(clientOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
  expect(clientOf("::1")).toBe("0:0:0:0::/64");
  expect(clientOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  expect(clientOf("::ffff:198.51.100.4")).toBe("198.51.100.4");
  expect(clientOf("198.51.100.4")).toBe("198.51.100.4");
  const slots = new ClientSlots(1);
  slots.take(from("2001:db8:1:2::10"));
  expect(slots.take(from("2001:db8:1:2::11"))).toMatchObject({ code: "too_many_uploads" });
});
