/**
 * The shared rate limiter's window in a real redis-server (src/auth/sharedRateLimiter.ts): the
 * script keeps a bucket's total (`t`) and oldest slot (`o`) beside the per-second slots, so a
 * check is O(1) until a slot leaves the window; then the slots are walked and the total recounted.
 * The slots' ages are written into the store by hand (the window is the store's clock: sixty
 * seconds cannot be waited for), as the script would have left them a minute earlier. Requests
 * of one bucket that arrive while its check is in flight are checked together in one call.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { SharedRateLimiter } from "../../src/auth/sharedRateLimiter.ts";
import { createLogger } from "../../src/log.ts";
import { startRedis, type RunningRedis } from "../support/redisServer.ts";

let redis: RunningRedis;
let client: RedisClient;
let limiter: SharedRateLimiter;
const PREFIX = "test:window:";

beforeAll(async () => {
  redis = await startRedis();
  client = new RedisClient(redis.url);
  await client.connect();
  limiter = new SharedRateLimiter(redis.url, createLogger("silent"), { prefix: PREFIX, timeoutMs: 2_000 });
});
afterAll(async () => {
  limiter.close();
  client.close();
  await redis.stop();
});

const storeSecond = async () => Number(((await client.send("TIME", [])) as string[])[0]);

test("a fresh bucket admits exactly its limit, then refuses with nothing left, keeping its total and oldest slot", async () => {
  const decisions = [];
  for (let i = 0; i < 4; i++) decisions.push(await limiter.consume("fresh", 3, Date.now()));
  expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
  expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
  expect(decisions[3]!.resetSeconds).toBeGreaterThanOrEqual(1);
  expect(Number(await client.hget(`${PREFIX}fresh`, "t"))).toBe(3);
});

test("a slot older than sixty seconds leaves the window: dropped, the total recounted from the live slots", async () => {
  const now = await storeSecond();
  const key = `${PREFIX}aged`;
  // 5 admitted 61 s ago (out of the window), 2 admitted 10 s ago (in it).
  await client.send("HSET", [key, String(now - 61), "5", String(now - 10), "2", "t", "7", "o", String(now - 61)]);
  const decision = await limiter.consume("aged", 3, Date.now());
  expect(decision).toMatchObject({ allowed: true, remaining: 0 });
  expect(await client.hget(key, String(now - 61))).toBeNull();
  expect(Number(await client.hget(key, "t"))).toBe(3);
  expect(Number(await client.hget(key, "o"))).toBe(now - 10);
  // Full again: the next is refused, and its reset is when the 10-second-old slot leaves (about 50 s).
  const refused = await limiter.consume("aged", 3, Date.now());
  expect(refused.allowed).toBe(false);
  expect(refused.resetSeconds).toBeGreaterThan(40);
  expect(refused.resetSeconds).toBeLessThanOrEqual(51);
});

test("a store that lost its scripts (SCRIPT FLUSH) is sent the script again, and the count goes on", async () => {
  expect((await limiter.consume("flushed", 10, Date.now())).remaining).toBe(9);
  await client.send("SCRIPT", ["FLUSH"]);
  expect((await limiter.consume("flushed", 10, Date.now())).remaining).toBe(8);
});

const scriptCalls = async () => {
  const info = String(await client.send("INFO", ["commandstats"]));
  return [...info.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
};

test("requests arriving while a check is in flight go together in one call, with the decisions one after another would get", async () => {
  const before = await scriptCalls();
  const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.consume("together", 7, Date.now())));
  expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  // In arrival order: the first seven admitted, counting down; the rest refused with nothing left.
  expect(decisions.map((d) => d.remaining)).toEqual([6, 5, 4, 3, 2, 1, 0, ...Array(13).fill(0)]);
  expect(decisions.map((d) => d.allowed)).toEqual([...Array(7).fill(true), ...Array(13).fill(false)]);
  // The first went alone; the nineteen that came while it was out went in one more.
  expect((await scriptCalls()) - before).toBe(2);
});

test("a batch admits in order as sequential checks would: a request too big for what is left is refused, a smaller one after it admitted", async () => {
  await limiter.consume("units", 7, Date.now(), 1); // one unit spent: six left
  const [five, three, one] = await Promise.all([5, 3, 1].map((units) => limiter.consume("units", 7, Date.now(), units)));
  expect([five!.allowed, three!.allowed, one!.allowed]).toEqual([true, false, true]);
  expect([five!.remaining, three!.remaining, one!.remaining]).toEqual([1, 1, 0]);
});
