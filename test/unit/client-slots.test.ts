/**
 * The per-address cap on requests in progress (ClientSlots): a slot per request, given back
 * once; an IPv6 client counted by its /64; and a table of addresses that never grows past its
 * bound, whatever addresses a flood brings.
 */
import { expect, test } from "bun:test";
import { ClientSlots, clientOf } from "../../src/adapters/http/clientSlots.ts";

test("an address has its cap of uploads in progress; a slot given back (once) makes room again", () => {
  const slots = new ClientSlots(2);
  const first = slots.take("203.0.113.7");
  const second = slots.take("203.0.113.7");
  expect(slots.take("203.0.113.7")).toMatchObject({ code: "too_many_uploads" });
  expect(typeof slots.take("203.0.113.8")).toBe("function");
  if (typeof first !== "function" || typeof second !== "function") throw new Error("refused below the cap");
  first();
  first(); // a second call gives nothing back twice
  expect(typeof slots.take("203.0.113.7")).toBe("function");
  expect(slots.take("203.0.113.7")).toMatchObject({ code: "too_many_uploads" });
});

test("the table of addresses is bounded: a new address past it is told the server is busy (503)", () => {
  const slots = new ClientSlots(5, 3);
  const held = ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map((address) => slots.take(address));
  expect(slots.take("192.0.2.4")).toMatchObject({ code: "server_busy" });
  expect(typeof slots.take("192.0.2.1")).toBe("function"); // one already counted still may
  expect(slots.clients).toBe(3);
  for (const release of held) if (typeof release === "function") release();
  expect(typeof slots.take("192.0.2.4")).toBe("function");
  expect(slots.clients).toBe(2); // 192.0.2.1 (its second slot) and 192.0.2.4
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
  slots.take("2001:db8:1:2::10");
  expect(slots.take("2001:db8:1:2::11")).toMatchObject({ code: "too_many_uploads" });
});
