import { expect, test } from "bun:test";
import { AttemptThrottle } from "../../src/auth/attemptThrottle.ts";

test("an address may fail up to the limit in a window, then waits until the window ends", () => {
  const throttle = new AttemptThrottle(3, 60_000);
  for (let i = 0; i < 3; i++) {
    expect(throttle.retryAfterSeconds("1.2.3.4", 1_000)).toBe(0);
    throttle.recordFailure("1.2.3.4", 1_000);
  }
  expect(throttle.retryAfterSeconds("1.2.3.4", 1_000)).toBe(60);
  expect(throttle.retryAfterSeconds("5.6.7.8", 1_000)).toBe(0); // per address
  expect(throttle.retryAfterSeconds("1.2.3.4", 61_000)).toBe(0); // a new window
});

test("memory is bounded: past the cap the oldest address is forgotten", () => {
  const throttle = new AttemptThrottle(1, 60_000, 100);
  for (let i = 0; i < 1_000; i++) throttle.recordFailure(`10.0.${i >> 8}.${i & 255}`, 0);
  expect(throttle.size).toBe(100);
  expect(throttle.retryAfterSeconds("10.0.3.231", 0)).toBeGreaterThan(0); // the newest is kept
  expect(throttle.retryAfterSeconds("10.0.0.0", 0)).toBe(0); // the oldest was dropped
});
