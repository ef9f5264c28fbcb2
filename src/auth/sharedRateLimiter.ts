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
 *
 * KEYS[1]: the bucket's hash: field = epoch second, value = requests admitted in it, plus `t`,
 * the total of the live slots, and `o`, the oldest live slot. So a check costs O(1) (HMGET, then
 * HINCRBY/HSET) while no slot has left the window; only when the oldest has are the slots walked
 * (at most 60) and the total recounted. Before, every check read and summed the whole hash: with
 * a busy key's 60 slots that was most of the store's CPU, and the store shares the machine.
 * ARGV: limit, then the units of each request of the batch (SharedRateLimiter sends the requests
 * that arrived for one bucket while its previous check was in flight, in one call), admitted in
 * order as one after another would be. Returns {resetSeconds, total before, 0|1 per request}.
 */
const WINDOW_SCRIPT = `
local limit = tonumber(ARGV[1])
local t = redis.call('TIME')
local second = tonumber(t[1])
local nowMs = second * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 't', 'o')
local total, oldest = tonumber(state[1]) or 0, tonumber(state[2])
if oldest ~= nil and oldest <= second - 60 then
  local fields = redis.call('HGETALL', KEYS[1])
  total, oldest = 0, nil
  for i = 1, #fields, 2 do
    local name = fields[i]
    if name ~= 't' and name ~= 'o' then
      local s = tonumber(name)
      if s <= second - 60 then
        redis.call('HDEL', KEYS[1], name)
      else
        total = total + tonumber(fields[i + 1])
        if oldest == nil or s < oldest then oldest = s end
      end
    end
  end
end
local before = total
local reply = {0, before}
local admitted = 0
for i = 2, #ARGV do
  local units = tonumber(ARGV[i])
  if total + units <= limit then
    total = total + units
    admitted = admitted + units
    reply[#reply + 1] = 1
  else
    reply[#reply + 1] = 0
  end
end
if admitted > 0 then
  redis.call('HINCRBY', KEYS[1], second, admitted)
  if oldest == nil then oldest = second end
end
if oldest ~= nil then
  redis.call('HSET', KEYS[1], 't', total, 'o', oldest)
else
  redis.call('HDEL', KEYS[1], 't', 'o')
end
redis.call('EXPIRE', KEYS[1], 61)
local reset = 1
if oldest ~= nil then reset = math.max(1, math.ceil(((oldest + 60) * 1000 - nowMs) / 1000)) end
reply[1] = reset
return reply
`;
/** Sent by its SHA-1 (EVALSHA): the script's text crosses the network, and is hashed by the store, only when the store lacks it. */
const WINDOW_SCRIPT_SHA = new Bun.CryptoHasher("sha1").update(WINDOW_SCRIPT).digest("hex");

/**
 * How long a request waits for the store by default (REDIS_TIMEOUT_MS, src/config.ts). A store
 * on the same network answers in about a millisecond; one that does not answer in 50 ms is hung
 * or saturated, and a request should not pay more than that for a limit it can check alone.
 */
export const DEFAULT_COMMAND_TIMEOUT_MS = 50;
/** While the circuit is open, how often one probe (PING, with the same timeout) asks whether the store is back. */
const PROBE_EVERY_MS = 1_000;

/** Requests of one bucket checked in one call at most (the script's arguments stay small). */
const MAX_BATCH = 256;

/** A request waiting for its check: its units, and where its decision goes. */
interface Waiting {
  units: number;
  nowMs: number;
  decide: (decision: RateDecision) => void;
}

/** A bucket's check in flight, and the requests that arrived meanwhile (sent together next). */
interface BucketLine {
  limit: number;
  next: Waiting[];
}

export interface SharedRateLimiterOptions {
  /** A command not answered within this counts as a failure (REDIS_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Prefix of the store's keys. */
  prefix?: string;
}

/**
 * Rate limits shared by every instance through Valkey or Redis (`REDIS_URL`).
 *
 * When the store is unreachable or does not answer within the timeout, the instance falls back
 * to its own in-process window: each instance then enforces the limit alone (at most N × limit
 * over N instances) rather than refusing every request or admitting without limit.
 *
 * A circuit breaker keeps a hung store (e.g. `kill -STOP`) from costing every request the
 * timeout: the first failure opens the circuit, and while it is open requests go straight to
 * the local window (no wait at all) while one probe a second asks the store (half-open); the
 * first probe answered in time closes it. One log line when it opens and one when it closes:
 * one pair per episode, however many requests it lasts.
 *
 * @example
 * const limiter = new SharedRateLimiter("redis://127.0.0.1:6379", log);
 * const decision = await limiter.consume("key_123", 60, Date.now());
 */
export class SharedRateLimiter implements RateLimiter {
  readonly #client: RedisClient;
  readonly #fallback = new InMemoryRateLimiter();
  readonly #timeoutMs: number;
  readonly #prefix: string;
  /** The first connection attempt: requests wait for it (within the timeout) rather than fall back. */
  readonly #connecting: Promise<void>;
  /**
   * Buckets with a check in flight, by limit and bucket. Requests for such a bucket wait for it and
   * go together in the next call: one script run and one round trip for all that arrived during
   * one, instead of one each, with the same decisions (the script admits them in order). A bucket
   * is here only while a check of it is in flight, so the map holds at most as many entries as
   * requests in progress.
   */
  readonly #lines = new Map<string, BucketLine>();
  #open = false;
  #probing = false;
  #nextProbeMs = 0;

  constructor(
    url: string,
    private readonly log: Logger,
    options: SharedRateLimiterOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    // "rate2": the buckets the O(1) script keeps (with `t` and `o`), apart from the earlier script's,
    // so instances of two versions during a rolling upgrade never misread each other's buckets
    // (for that minute each version counts its own requests).
    this.#prefix = options.prefix ?? "bd:rate2:";
    // No offline queue: while disconnected a command fails at once (and the fallback answers)
    // instead of waiting in a queue with the request behind it. Reconnecting is the probe's
    // (one attempt a second, for as long as it takes), not the client's, which gives up after
    // a number of retries: a store down for an hour must be picked up again without a restart.
    this.#client = new RedisClient(url, { enableOfflineQueue: false, autoReconnect: false, connectionTimeout: 1_000 });
    // The script is loaded as soon as the store answers, so no request pays the NOSCRIPT round
    // trip (a first check's two round trips plus the connection passed the timeout on a busy host).
    this.#connecting = this.#loadScript().catch(() => undefined);
  }

  consume(bucket: string, limitPerMinute: number, nowMs: number, units = 1): Promise<RateDecision> {
    if (this.#open) {
      this.#probeWhenDue();
      return Promise.resolve(this.#fallback.consume(bucket, limitPerMinute, nowMs, units));
    }
    return new Promise<RateDecision>((decide) => {
      const waiting: Waiting = { units, nowMs, decide };
      const line = `${limitPerMinute}:${bucket}`;
      const busy = this.#lines.get(line);
      if (busy && busy.next.length < MAX_BATCH) busy.next.push(waiting);
      else void this.#check(line, bucket, limitPerMinute, [waiting]);
    });
  }

  /** Checks a batch, then the one that gathered behind it, until none did. */
  async #check(line: string, bucket: string, limit: number, batch: Waiting[]): Promise<void> {
    const mine: BucketLine = { limit, next: [] };
    this.#lines.set(line, mine);
    try {
      const reply = await this.#run(bucket, limit, batch.map((w) => w.units));
      const resetSeconds = reply[0]!;
      let total = reply[1]!;
      batch.forEach((waiting, i) => {
        const allowed = reply[i + 2] === 1;
        if (allowed) total += waiting.units;
        waiting.decide({ allowed, limit, remaining: Math.max(0, limit - total), resetSeconds });
      });
    } catch (error) {
      this.#trip(error);
      for (const waiting of batch) waiting.decide(this.#fallback.consume(bucket, limit, waiting.nowMs, waiting.units));
    } finally {
      if (this.#lines.get(line) === mine) this.#lines.delete(line);
    }
    if (mine.next.length > 0) {
      if (this.#open) for (const waiting of mine.next) waiting.decide(this.#fallback.consume(bucket, limit, waiting.nowMs, waiting.units));
      else await this.#check(line, bucket, limit, mine.next);
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

  /** Opens the circuit (logged once per episode: requests fail over silently while it is open). */
  #trip(error: unknown): void {
    if (this.#open) return;
    this.#open = true;
    this.#nextProbeMs = Date.now() + PROBE_EVERY_MS;
    this.log.warn("rate-limit store unreachable or not answering: each instance limits alone until it answers", {
      error: error instanceof Error ? error.message : String(error),
      timeoutMs: this.#timeoutMs,
    });
  }

  /** Half-open: one probe at a time, at most once a second, off the request path. */
  #probeWhenDue(): void {
    if (this.#probing || Date.now() < this.#nextProbeMs) return;
    this.#probing = true;
    this.#nextProbeMs = Date.now() + PROBE_EVERY_MS;
    void (async () => {
      try {
        if (!this.#client.connected) await this.#within(this.#loadScript());
        await this.#within(this.#client.send("PING", []));
        this.#open = false;
        this.log.info("rate-limit store reachable again: limits are shared across instances");
      } catch {
        // Still down or hung: the circuit stays open, the next probe is a second away.
      } finally {
        this.#probing = false;
      }
    })();
  }

  /** Connects, and has the store cache the script (SCRIPT LOAD), so EVALSHA finds it. */
  async #loadScript(): Promise<void> {
    await this.#client.connect();
    await this.#client.send("SCRIPT", ["LOAD", WINDOW_SCRIPT]);
  }

  /** The script's reply: reset seconds, the window's total before, then 1 or 0 for each request. */
  async #run(bucket: string, limit: number, units: readonly number[]): Promise<number[]> {
    if (!this.#client.connected) await this.#within(this.#connecting);
    const args = ["1", this.#prefix + bucket, String(limit), ...units.map(String)];
    const reply = await this.#within(
      this.#client.send("EVALSHA", [WINDOW_SCRIPT_SHA, ...args]).catch((error: unknown) => {
        // A store that has not seen the script (new, restarted, SCRIPT FLUSH): sent whole, which also caches it.
        if (error instanceof Error && error.message.includes("NOSCRIPT")) return this.#client.send("EVAL", [WINDOW_SCRIPT, ...args]);
        throw error;
      }),
    );
    if (!Array.isArray(reply) || reply.length !== units.length + 2 || !reply.every((n) => typeof n === "number")) {
      throw new Error("unexpected reply from the rate-limit script");
    }
    return reply as number[];
  }

  /**
   * `work`, or a rejection once the timeout passed. The timer's verdict waits one more turn of
   * the event loop (setImmediate): on a saturated loop the timer can come due while a reply is
   * already on the socket, unread, and that reply must win (the suite's PostgreSQL run once
   * admitted an 11th request of 10 that way: the store counted it, and so did the fallback).
   */
  #within<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${this.#timeoutMs} ms`))), this.#timeoutMs);
      work.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }
}
