import { expect, test } from "bun:test";
import { firstQueryValues } from "../../src/adapters/http/firstQueryValues.ts";
import { queryObject } from "../../src/adapters/rest/restRoute.ts";
import { seededRandom } from "../support/seededRandom.ts";

// firstQueryValues stands in for URLSearchParams on REST's query strings: where it answers, it
// must answer exactly as URLSearchParams does (first value of each name, same keys and order).

/** What REST read before: each name's first value, through URLSearchParams. */
function throughUrlSearchParams(search: string): Record<string, string> {
  const first = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(search)) if (!first.has(name)) first.set(name, value);
  return Object.fromEntries(first);
}

function expectSame(search: string): void {
  const expected = throughUrlSearchParams(search);
  const fast = firstQueryValues(search);
  if (fast !== undefined) {
    expect(Object.entries(fast), search).toEqual(Object.entries(expected));
    expect(Object.getPrototypeOf(fast), search).toBe(Object.prototype);
  }
  // Whichever way it is read, REST's query is URLSearchParams' answer.
  expect(Object.entries(queryObject({ search, get searchParams() { return new URLSearchParams(search); } })), search).toEqual(Object.entries(expected));
}

test("the queries REST sees most are read by hand, as URLSearchParams reads them", () => {
  const cases = [
    "?q=Emily%20Pelletier&limit=20&page=1",
    "?q=Emily+Pelletier&limit=20&page=1",
    "?province=ON",
    "?q=caf%C3%A9%20Montr%C3%A9al",
    "?q=%F0%9F%98%80",
    "?q=a%2Bb+c",
    "?q=100%25",
    "?a=1&a=2&b=&c",
    "?&&a=1&&",
    "?=x&=y",
    "?a==b=c",
    "?",
    "",
    "a=1",
    "?__proto__=x&constructor=y&toString=z",
    "?2=b&1=a&x=c",
    "?%61=1&a=2",
    "?q=%EF%BB%BFbom",
  ];
  for (const search of cases) {
    expectSame(search);
    if (search !== "" && search !== "?") expect(firstQueryValues(search), search).toBeDefined();
  }
});

test("a parameter named __proto__ is a plain key, not the object's prototype", () => {
  const values = firstQueryValues("?__proto__=x&__proto__=y")!;
  expect(Object.hasOwn(values, "__proto__")).toBe(true);
  expect(Object.getOwnPropertyDescriptor(values, "__proto__")?.value).toBe("x");
  expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
});

test("what decodeURIComponent would read otherwise is left to URLSearchParams", () => {
  // A lone %, a % without hex digits, bytes that are not UTF-8, an encoded surrogate, raw text beyond ASCII, a space.
  for (const search of ["?q=%", "?q=%zz", "?q=%C3", "?q=%FF%FE", "?q=%ED%A0%80", "?q=café", "?q=a b", "?q=\ud800", "?q=%E2%82"]) {
    expect(firstQueryValues(search), search).toBeUndefined();
    expectSame(search);
  }
});

test("random query strings over the characters that matter: the same answer as URLSearchParams", () => {
  const pieces = ["a", "b", "Z", "0", "=", "&", "+", "%", "%2", "%20", "%25", "%26", "%3D", "%2B", "%C3%A9", "%E2%82%AC", "%F0%9F%98%80", "%C3", "%FF", "%zz", "__proto__", "-", ".", "~", "!", "*", "'", "(", ";", ":", "@", "/", "?", ",", "$", "é", " "];
  const random = seededRandom(30);
  const next = (n: number) => Math.floor(random() * n);
  let handled = 0;
  for (let i = 0; i < 20_000; i++) {
    let search = next(4) === 0 ? "" : "?";
    for (let length = next(12); length > 0; length--) search += pieces[next(pieces.length)];
    expectSame(search);
    if (firstQueryValues(search) !== undefined) handled++;
  }
  // Most are read by hand: the test compares both ways, not only the fallback.
  expect(handled).toBeGreaterThan(5_000);
});
