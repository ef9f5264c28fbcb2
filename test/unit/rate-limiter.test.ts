import { expect, test } from "bun:test";
import { InMemoryRateLimiter } from "../../src/auth/rateLimiter.ts";

test("allows the limit within a minute, then refuses until the oldest request leaves the window", () => {
  const limiter = new InMemoryRateLimiter();
  const start = 1_000_000_000_000;
  for (let i = 0; i < 5; i++) expect(limiter.consume("k", 5, start + i * 1000).allowed).toBe(true);
  const refused = limiter.consume("k", 5, start + 10_000);
  expect(refused).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 50 });
  expect(limiter.consume("k", 5, start + 59_999).allowed).toBe(false);
  expect(limiter.consume("k", 5, start + 60_000).allowed).toBe(true);
  expect(limiter.consume("k", 5, start + 60_500).allowed).toBe(false);
  expect(limiter.consume("k", 5, start + 61_000).allowed).toBe(true);
});

test("refused requests do not count", () => {
  const limiter = new InMemoryRateLimiter();
  const t = 2_000_000_000_000;
  limiter.consume("k", 1, t);
  for (let i = 0; i < 10; i++) limiter.consume("k", 1, t + 1000);
  expect(limiter.consume("k", 1, t + 60_000).allowed).toBe(true);
});

test("a long idle gap clears the window; sweep forgets idle keys", () => {
  const limiter = new InMemoryRateLimiter();
  const t = 3_000_000_000_000;
  limiter.consume("k", 2, t);
  limiter.consume("k", 2, t);
  expect(limiter.consume("k", 2, t + 3_600_000)).toMatchObject({ allowed: true, remaining: 1 });
  limiter.sweep(t + 10 * 3_600_000);
  expect(limiter.consume("k", 2, t + 10 * 3_600_000)).toMatchObject({ allowed: true, remaining: 1 });
});
