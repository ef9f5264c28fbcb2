/**
 * `bun scripts/bench/rateLimitStoreCost.ts`: what one shared rate-limit check costs the store
 * (src/auth/sharedRateLimiter.ts), in a throwaway redis-server: a busy key's bucket holding a full
 * minute of slots (the steady state under traffic), 64 checks in flight, then checks a second and
 * the store's CPU per check. Not part of `bun run bench`: for before/after comparisons of the script.
 *
 * Measured 2026-11-25 on this 2-core machine (other work running): the script that summed every
 * slot on each check took 32–33 µs of the store's CPU a check (25–30 k checks/s, the store's core
 * saturated); the one keeping the total beside the slots (O(1) until a slot expires) 10.5–11 µs
 * (60–87 k checks/s).
 */
import { RedisClient } from "bun";
import { readFileSync } from "node:fs";
import { SharedRateLimiter } from "../../src/auth/sharedRateLimiter.ts";
import { createLogger } from "../../src/log.ts";
import { startRedis } from "../../test/support/redisServer.ts";

const redis = await startRedis();
const port = new URL(redis.url).port;
const pid = Number(Bun.spawnSync(["pgrep", "-f", `redis-server.*${port}`]).stdout.toString().trim().split("\n")[0]);
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
try {
  const prefix = "cost:";
  const limiter = new SharedRateLimiter(redis.url, createLogger("silent"), { prefix, timeoutMs: 5_000 });
  // A minute of slots, as the script leaves them: one per second, their total and the oldest.
  const client = new RedisClient(redis.url);
  await client.connect();
  const now = Number(((await client.send("TIME", [])) as string[])[0]);
  const slots: string[] = [];
  for (let i = 1; i <= 58; i++) slots.push(String(now - i), "1");
  await client.send("HSET", [`${prefix}hot`, ...slots, "t", "58", "o", String(now - 58)]);
  client.close();
  const run = async (ms: number) => {
    let checks = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (performance.now() < end) {
          await limiter.consume("hot", 1_000_000_000, Date.now());
          checks++;
        }
      }),
    );
    return checks;
  };
  await run(1_000);
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  const checks = await run(3_000);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds() - cpuBefore;
  console.log(`${Math.round(checks / seconds).toLocaleString("en-CA")} checks/s; the store used ${Math.round((100 * cpu) / seconds)} % of a core, ${((cpu / checks) * 1e6).toFixed(1)} µs a check`);
  limiter.close();
} finally {
  await redis.stop();
}
