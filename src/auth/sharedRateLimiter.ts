import { RedisClient } from "bun";
import type { CacheStats } from "../cache/boundedCache.ts";
import type { Logger } from "../log.ts";
import { InMemoryRateLimiter, type RateDecision, type RateLimiter } from "./rateLimiter.ts";

/**
 * The same window as InMemoryRateLimiter (sixty one-second slots, a request allowed while fewer
 * than `limit` were admitted in the last sixty seconds), kept in Valkey/Redis so that every
 * instance serving one workspace spends one budget. Check and count run in one Lua script, which
 * the server runs atomically: N requests in flight over any number of instances admit exactly
 * the limit. The clock is the store's (TIME), so instances with skewed clocks agree.
 * KEYS[1]: the bucket's hash (field = epoch second, value = requests). ARGV: limit, units.
 * Returns {allowed 0|1, remaining, resetSeconds}.
 */
const WINDOW_SCRIPT = `
local limit = tonumber(ARGV[1])
local units = tonumber(ARGV[2])
local t = redis.call('TIME')
local second = tonumber(t[1])
local nowMs = second * 1000 + math.floor(tonumber(t[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local total, oldest = 0, nil
for i = 1, #fields, 2 do
  local s = tonumber(fields[i])
  if s <= second - 60 then
    redis.call('HDEL', KEYS[1], fields[i])
  else
    total = total + tonumber(fields[i + 1])
    if oldest == nil or s < oldest then oldest = s end
  end
end
local allowed = 0
if total + units <= limit then
  redis.call('HINCRBY', KEYS[1], second, units)
  total = total + units
  allowed = 1
  if oldest == nil then oldest = second end
end
redis.call('EXPIRE', KEYS[1], 61)
local reset = 1
if oldest ~= nil then reset = math.max(1, math.ceil(((oldest + 60) * 1000 - nowMs) / 1000)) end
return {allowed, math.max(0, limit - total), reset}
`;

/**
 * A store that does not answer within this is treated as down for this request. Not shorter: on
 * a saturated event loop the timer can fire before a reply already on the socket is read (the
 * suite's PostgreSQL run showed 250 ms admitting an 11th request of 10), and a refused
 * connection (the usual outage) falls back at once anyway; only a hung store costs the wait.
 */
const COMMAND_TIMEOUT_MS = 1_000;
/** While the store is unreachable, how often a request tries to connect again. */
const RECONNECT_EVERY_MS = 1_000;

/**
 * Rate limits shared by every instance through Valkey or Redis (`REDIS_URL`).
 *
 * When the store is unreachable the instance falls back to its own in-process window: each
 * instance then enforces the limit alone (at most N × limit over N instances) rather than
 * refusing every request or admitting without limit. The episode is logged once when it starts
 * and once when the store answers again.
 *
 * @example
 * const limiter = new SharedRateLimiter("redis://127.0.0.1:6379", log);
 * const decision = await limiter.consume("key_123", 60, Date.now());
 */
export class SharedRateLimiter implements RateLimiter {
  readonly #client: RedisClient;
  readonly #fallback = new InMemoryRateLimiter();
  /** The latest connection attempt: requests wait for it (within the timeout) rather than fall back. */
  #connecting: Promise<void>;
  #lastAttemptMs = 0;
  #down = false;

  constructor(
    url: string,
    private readonly log: Logger,
    private readonly prefix = "bd:rate:",
  ) {
    // No offline queue: while disconnected a command fails at once (and the fallback answers)
    // instead of waiting in a queue with the request behind it. Reconnecting is ours (at most
    // one attempt a second, for as long as it takes), not the client's, which gives up after
    // a number of retries: a store down for an hour must be picked up again without a restart.
    this.#client = new RedisClient(url, { enableOfflineQueue: false, autoReconnect: false, connectionTimeout: 1_000 });
    this.#connecting = this.#connect();
  }

  #connect(): Promise<void> {
    this.#lastAttemptMs = Date.now();
    return this.#client.connect().catch(() => undefined);
  }

  async consume(bucket: string, limitPerMinute: number, nowMs: number, units = 1): Promise<RateDecision> {
    try {
      const [allowed, remaining, resetSeconds] = await this.#run(bucket, limitPerMinute, units);
      if (this.#down) {
        this.#down = false;
        this.log.info("rate-limit store reachable again: limits are shared across instances");
      }
      return { allowed: allowed === 1, limit: limitPerMinute, remaining, resetSeconds };
    } catch (error) {
      if (!this.#down) {
        this.#down = true;
        this.log.warn("rate-limit store unreachable: each instance limits alone until it answers", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return this.#fallback.consume(bucket, limitPerMinute, nowMs, units);
    }
  }

  sweep(nowMs: number): void {
    this.#fallback.sweep(nowMs);
  }

  /** The in-process windows used while the store is down (bounded like any other). */
  stats(): CacheStats {
    return this.#fallback.stats();
  }

  close(): void {
    this.#client.close();
  }

  async #run(bucket: string, limit: number, units: number): Promise<[number, number, number]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
    });
    try {
      if (!this.#client.connected) {
        if (Date.now() - this.#lastAttemptMs >= RECONNECT_EVERY_MS) this.#connecting = this.#connect();
        await Promise.race([this.#connecting, timeout]);
      }
      const reply = await Promise.race([this.#client.send("EVAL", [WINDOW_SCRIPT, "1", this.prefix + bucket, String(limit), String(units)]), timeout]);
      if (!Array.isArray(reply) || reply.length !== 3 || !reply.every((n) => typeof n === "number")) {
        throw new Error("unexpected reply from the rate-limit script");
      }
      return reply as [number, number, number];
    } finally {
      clearTimeout(timer);
    }
  }
}
