import { describe, expect, test } from "bun:test";
import { splitPlainUrl } from "../../src/adapters/http/splitUrl.ts";

/** What the front door reads of a URL, from the real URL parser. */
function viaUrl(href: string) {
  const url = new URL(href);
  return { origin: url.origin, pathname: url.pathname, search: url.search, params: [...url.searchParams] };
}

function viaSplit(href: string) {
  const url = splitPlainUrl(href);
  return url && { origin: url.origin, pathname: url.pathname, search: url.search, params: [...url.searchParams] };
}

describe("the hand-split request URL", () => {
  test("plain URLs are split exactly as new URL splits them", () => {
    for (const href of [
      "http://127.0.0.1:3000/api/v1/brokers?province=ON&limit=20",
      "http://localhost:8080/healthz",
      "http://broker.example/api/v1/brokers/jane-doe-insurance",
      "http://a-b.example.ca:65535/api/v1/reviews/12?page=2&limit=5",
      "http://10.0.0.255/x?",
      "http://example.com/api/v1/brokers?q=caf%C3%A9+b%26b&city=Qu%C3%A9bec&q=second",
      "http://example.com/p%20q/~user/a:b@c!$&'()*+,;=",
    ]) {
      expect(viaSplit(href)).toEqual(viaUrl(href));
    }
  });

  test("anything URL would change or refuse is left to URL", () => {
    for (const href of [
      "http://a:99999999/x", // no URL at all (the front door's 400)
      "http://EXAMPLE.com/x", // lowercased
      "http://example.com:80/x", // default port dropped
      "http://example.com:0080/x",
      "http://0x7f.1/x", // an IPv4 number, rewritten
      "http://127.1/x",
      "http://999.1.1.1/x",
      "http://example.123/x",
      "http://xn--zz.example/x", // punycode, decoded or refused
      "http://example.com/a/../b", // dot segments resolved
      "http://example.com/a/%2e%2E/b",
      "http://example.com/a b",
      'http://example.com/x?q="quoted"',
      "http://example.com/x?q='quoted'",
      "http://example.com/x?q=<b>",
      "http://example.com/x#fragment",
      "http://example.com/caf\u00e9",
      "http://[::1]:3000/x",
      "https://example.com/x",
      "http://example.com/a\\b",
      "http://example.com./x",
    ]) {
      expect(splitPlainUrl(href)).toBeUndefined();
    }
  });

  test("over random URLs, whatever is split by hand equals what URL gives", () => {
    // A fixed generator (no flakiness), over the characters where the two could part ways.
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const pick = (alphabet: string, max: number) => Array.from({ length: random(max) }, () => alphabet[random(alphabet.length)]).join("");
    const hostChars = "abcxyz0129.-AX:_%";
    const pathChars = "az09/.%2eE-_~!$&'()*+,;=:@?# \"<>\\[]^`{|}é";
    let split = 0;
    for (let i = 0; i < 50_000; i++) {
      const href = `http://${pick(hostChars, 12)}${random(3) === 0 ? `:${random(70_000)}` : ""}/${pick(pathChars, 16)}`;
      const mine = viaSplit(href);
      if (mine === undefined) continue;
      split++;
      expect(mine).toEqual(viaUrl(href));
    }
    expect(split).toBeGreaterThan(1_500); // the comparison did run on many URLs
  });
});
