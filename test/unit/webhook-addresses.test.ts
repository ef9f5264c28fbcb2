/**
 * Issue 28's SSRF guard, rule by rule: which literal addresses registration refuses (IPv4, IPv6,
 * IPv4-mapped and the other IPv6 forms that reach an IPv4 address), what a name's resolution
 * must give for a delivery to go, and that the request goes to the address that was checked.
 */
import { expect, test } from "bun:test";
import { addressKind, checkEndpointUrl } from "../../src/domain/webhooks/endpointAddress.ts";
import { retryDelayMs } from "../../src/domain/webhooks/retrySchedule.ts";
import { AddressRefused, checkedAddresses, pinnedPost } from "../../src/ops/webhooks/pinnedFetch.ts";

test.each([
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["10.0.0.1", "private"],
  ["172.16.5.4", "private"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "private"],
  ["169.254.169.254", "metadata"],
  ["169.254.3.3", "link-local"],
  ["0.0.0.0", "unspecified"],
  ["224.0.0.1", "multicast"],
  ["255.255.255.255", "reserved"],
  ["8.8.8.8", "public"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:169.254.169.254", "metadata"],
  ["::ffff:8.8.8.8", "public"],
  ["::127.0.0.1", "loopback"],
  ["64:ff9b::a9fe:a9fe", "metadata"],
  ["2002:0a00:0001::1", "private"],
  ["fd00::1", "private"],
  ["fc00::1", "private"],
  ["fd00:ec2::254", "metadata"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2606:4700:4700::1111", "public"],
])("%s is %s", (ip, kind) => {
  expect(addressKind(ip)).toBe(kind as never);
});

test("registration: https only, loopback only with the allowance, no literal that is not public, in whatever spelling the URL parser accepts", () => {
  const refused = (url: string, allow = false) => "problem" in checkEndpointUrl(url, allow);
  for (const url of ["http://hooks.example.com/", "https://10.0.0.1/", "https://169.254.169.254/", "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://[fd00::1]/", "https://0x7f.1/", "https://2130706433/", "https://017700000001/", "https://localhost/", "https://a.localhost/", "https://[::ffff:a9fe:a9fe]/"]) {
    expect(refused(url), url).toBe(true);
  }
  for (const url of ["http://127.0.0.1:9/", "http://[::1]:9/", "http://localhost:9/", "https://127.0.0.1/"]) expect(refused(url, true), url).toBe(false);
  for (const url of ["http://10.0.0.1/", "https://169.254.169.254/", "http://hooks.example.com/"]) expect(refused(url, true), url).toBe(true);
  expect(checkEndpointUrl("https://hooks.example.com/in?x=1#frag", false)).toEqual({ url: "https://hooks.example.com/in?x=1" });
});

test("delivery: a name is refused when any address it resolves to is not public, and loopback names without the allowance", async () => {
  const resolveTo = (addresses: string[]) => async () => addresses;
  const url = new URL("https://hooks.example.com/x");
  expect(await checkedAddresses(url, false, resolveTo(["93.184.216.34"]))).toEqual(["93.184.216.34"]);
  for (const addresses of [["10.0.0.1"], ["93.184.216.34", "127.0.0.1"], ["::ffff:169.254.169.254"], ["fd12::3"], []]) {
    await expect(checkedAddresses(url, false, resolveTo(addresses))).rejects.toBeInstanceOf(AddressRefused);
  }
  await expect(checkedAddresses(new URL("https://localhost/"), false, resolveTo(["93.184.216.34"]))).rejects.toBeInstanceOf(AddressRefused);
  expect(await checkedAddresses(url, true, resolveTo(["127.0.0.1"]))).toEqual(["127.0.0.1"]);
});

test("the request goes to the address that was checked, with the registered name as Host", async () => {
  const seen: { host: string | null }[] = [];
  const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => (seen.push({ host: r.headers.get("host") }), new Response("ok")) });
  try {
    // The name exists in no DNS: only the checked address can have been connected to.
    const answer = await pinnedPost(
      { url: `http://hooks.invalid:${receiver.port}/in`, headers: {}, body: "{}", allowLoopback: true, signal: AbortSignal.timeout(5_000), maxBodyBytes: 10 },
      async () => ["127.0.0.1"],
    );
    expect(answer.status).toBe(200);
    expect(seen).toEqual([{ host: `hooks.invalid:${receiver.port}` }]);
  } finally {
    void receiver.stop(true);
  }
});

test("retry waits double from the base up to an hour, each spread by ±25 %", () => {
  expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000, 0.5))).toEqual([10_000, 20_000, 40_000, 80_000]);
  expect(retryDelayMs(30, 10_000, 0.5)).toBe(3_600_000);
  expect(retryDelayMs(1, 10_000, 0)).toBe(7_500);
  expect(retryDelayMs(1, 10_000, 0.999_999)).toBeLessThanOrEqual(12_500);
});
