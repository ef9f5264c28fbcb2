import { expect, test } from "bun:test";
import { IdleCollector } from "../../src/ops/idleCollector.ts";

/** A collector over a request counter the test moves, counting its collections. */
function collector(minRequests = 100) {
  let begun = 0;
  let collections = 0;
  const idle = new IdleCollector(() => begun, () => collections++, minRequests);
  return {
    requests: (n: number) => (begun += n),
    check: () => idle.check(),
    collections: () => collections,
  };
}

test("after a busy stretch, the first idle check collects, once", () => {
  const c = collector();
  c.requests(500);
  expect(c.check()).toBe(false); // requests arrived since the last check: busy
  expect(c.check()).toBe(true); // none since: idle, after 500 requests
  expect(c.check()).toBe(false); // still idle, nothing new to give back
  expect(c.collections()).toBe(1);
});

test("a busy server is left to the engine: no collection while requests keep arriving", () => {
  const c = collector();
  for (let period = 0; period < 10; period++) {
    c.requests(1_000);
    expect(c.check()).toBe(false);
  }
  expect(c.collections()).toBe(0);
});

test("a trickle below the threshold never collects; enough of it does, at the next idle check", () => {
  const c = collector(100);
  for (let period = 0; period < 9; period++) {
    c.requests(10);
    c.check(); // busy
    expect(c.check()).toBe(false); // idle, but fewer than 100 requests since start
  }
  c.requests(10);
  c.check();
  expect(c.check()).toBe(true); // 100 requests behind it
  expect(c.collections()).toBe(1);
});
