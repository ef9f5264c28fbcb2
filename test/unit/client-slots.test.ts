/**
 * The per-address cap on requests in progress (ClientSlots): a slot per request, given back
 * once; an IPv6 client counted by its /64; and a table of addresses that never grows past its
 * bound, whatever addresses a flood brings.
 */
import { expect, test } from "bun:test";
import { ClientSlots, clientOf } from "../../src/adapters/http/clientSlots.ts";
import { seededRandom } from "../support/seededRandom.ts";

/** An address as the front door hands it over: asked for only when needed (counted in `asked`). */
const asked: string[] = [];
const from = (address: string | undefined) => () => {
  asked.push(address ?? "(gone)");
  return address;
};

test("an address has its cap of uploads in progress; a slot given back (once) makes room again", () => {
  const slots = new ClientSlots(2);
  const first = slots.take(from("203.0.113.7"));
  const second = slots.take(from("203.0.113.7"));
  expect(slots.take(from("203.0.113.7"))).toMatchObject({ code: "too_many_uploads" });
  expect(typeof slots.take(from("203.0.113.8"))).toBe("function");
  if (typeof first !== "function" || typeof second !== "function") throw new Error("refused below the cap");
  first();
  first(); // a second call gives nothing back twice
  expect(typeof slots.take(from("203.0.113.7"))).toBe("function");
  expect(slots.take(from("203.0.113.7"))).toMatchObject({ code: "too_many_uploads" });
});

test("below the cap in all, no address is asked for; the request that could reach it has every one in progress counted", () => {
  asked.length = 0;
  const slots = new ClientSlots(3);
  const a = slots.take(from("192.0.2.1"));
  const b = slots.take(from("192.0.2.1"));
  const c = slots.take(from("192.0.2.2"));
  expect(asked).toEqual([]);
  expect(slots.clients).toBe(0);
  // The fourth in progress: the three before it are counted by address, then it.
  expect(typeof slots.take(from("192.0.2.1"))).toBe("function");
  expect(asked).toEqual(["192.0.2.1", "192.0.2.1", "192.0.2.2", "192.0.2.1"]);
  expect(slots.clients).toBe(2);
  expect(slots.take(from("192.0.2.1"))).toMatchObject({ code: "too_many_uploads" });
  // Given back after being counted: the address's count goes down.
  if (typeof a !== "function" || typeof b !== "function" || typeof c !== "function") throw new Error("refused below the cap");
  a();
  expect(typeof slots.take(from("192.0.2.1"))).toBe("function");
  expect(slots.take(from("192.0.2.1"))).toMatchObject({ code: "too_many_uploads" });
  b();
  c();
  expect(slots.clients).toBe(1);
});

test("a refused request holds nothing; a socket already gone (no address) holds nothing either", () => {
  asked.length = 0;
  const slots = new ClientSlots(1);
  const gone = slots.take(from(undefined));
  expect(typeof slots.take(from("192.0.2.9"))).toBe("function"); // the one gone was not counted against anyone
  expect(asked).toEqual(["(gone)", "192.0.2.9"]);
  expect(slots.take(from("192.0.2.9"))).toMatchObject({ code: "too_many_uploads" });
  if (typeof gone === "function") gone();
  expect(slots.take(from("192.0.2.9"))).toMatchObject({ code: "too_many_uploads" });
});

test("random takes and releases: no address ever holds more than the cap, and a request is refused only when its address holds the cap", () => {
  const random = seededRandom(7);
  const next = (n: number) => Math.floor(random() * n);
  const cap = 4;
  const slots = new ClientSlots(cap);
  const held: { address: string; release: () => void }[] = [];
  for (let step = 0; step < 20_000; step++) {
    if (held.length > 0 && next(2) === 0) {
      held.splice(next(held.length), 1)[0]!.release();
      continue;
    }
    const address = `198.51.100.${next(3)}`;
    const holding = held.filter((h) => h.address === address).length;
    const slot = slots.take(() => address);
    if (typeof slot === "function") {
      expect(holding).toBeLessThan(cap);
      held.push({ address, release: slot });
    } else {
      expect(slot.code).toBe("too_many_uploads");
      expect(holding).toBe(cap);
    }
  }
});

test("the table of addresses is bounded: a new address past it is told the server is busy (503)", () => {
  const slots = new ClientSlots(2, 3);
  const held = ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map((address) => slots.take(from(address)));
  expect(slots.take(from("192.0.2.4"))).toMatchObject({ code: "server_busy" });
  expect(typeof slots.take(from("192.0.2.1"))).toBe("function"); // one already counted still may
  expect(slots.clients).toBe(3);
  for (const release of held) if (typeof release === "function") release();
  expect(typeof slots.take(from("192.0.2.4"))).toBe("function");
  expect(slots.clients).toBe(1); // 192.0.2.1 (its second slot); 192.0.2.4 came below the cap, uncounted
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
