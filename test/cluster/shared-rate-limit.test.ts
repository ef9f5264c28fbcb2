import { afterAll, beforeAll, expect, test } from "bun:test";
import { createKeyWithCli, runCli, startServe, tempDir, type ServedProcess } from "../cli/cliHarness.ts";
import { startRedis, type RunningRedis } from "../support/redisServer.ts";
import { childExit } from "../support/childExit.ts";

/**
 * REDIS_URL: three instances of the server over one database and one redis-server spend one
 * budget per key (the window lives in the store, checked and counted by one atomic script).
 */
const tmp = tempDir();
const DB = tmp.path("cluster.db");
let redis: RunningRedis;
let instances: ServedProcess[] = [];

const keyWithLimit = async (limit: number, name: string) => (await createKeyWithCli({ DATABASE_PATH: DB }, { workspace: "cluster", name, rateLimit: limit })).key;

function serve(): Promise<ServedProcess> {
  return startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo"], { env: { DATABASE_PATH: DB, REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "1000" } });
}

beforeAll(async () => {
  redis = await startRedis();
  await runCli(["migrate"], { DATABASE_PATH: DB });
  instances = await Promise.all([serve(), serve(), serve()]);
}, 30_000);

afterAll(async () => {
  for (const instance of instances) instance.proc.kill("SIGTERM");
  await Promise.all(instances.map((instance) => childExit(instance.proc)));
  await redis?.stop();
  tmp.remove();
  // An instance may take up to its shutdown grace (10 s) for a connection still open.
}, 20_000);

const get = (base: string, key: string) => fetch(`${base}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}` } });

test("50 requests in flight over 3 instances admit exactly the key's limit of 10", async () => {
  const key = await keyWithLimit(10, "exact");
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => get(instances[i % 3]!.url, key)));
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 200).length).toBe(10);
  expect(statuses.filter((s) => s === 429).length).toBe(40);
  // Every instance reports the one shared window.
  const refused = answers.find((a) => a.status === 429)!;
  expect(refused.headers.get("RateLimit-Remaining")).toBe("0");
  expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
}, 30_000);

test("RateLimit-Remaining counts down across instances", async () => {
  const key = await keyWithLimit(5, "countdown");
  const remaining: (string | null)[] = [];
  for (let i = 0; i < 5; i++) remaining.push((await get(instances[i % 3]!.url, key)).headers.get("RateLimit-Remaining"));
  expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
  expect((await get(instances[2]!.url, key)).status).toBe(429);
}, 30_000);

test("with the store down, each instance goes on limiting alone (logged once), and shares again once it is back", async () => {
  const key = await keyWithLimit(3, "fallback");
  const url = redis.url;
  await redis.stop();
  // Alone: each instance admits the limit itself (3 each), then refuses.
  for (const instance of instances) {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(instance.url, key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  }
  const count = (text: string) => instances.map((i) => i.output().split(text).length - 1);
  await logged(() => count("rate-limit store unreachable").every((n) => n === 1));
  expect(count("rate-limit store unreachable")).toEqual([1, 1, 1]);

  // Back on the same address: the instances reconnect by themselves and share one budget again.
  redis = await startRedis(Number(new URL(url).port));
  const probe = await keyWithLimit(10_000, "probe");
  await logged(async () => {
    await Promise.all(instances.map((i) => get(i.url, probe)));
    return count("rate-limit store reachable again").every((n) => n === 1);
  }, 15_000);
  expect(count("rate-limit store reachable again")).toEqual([1, 1, 1]);
  const shared = await keyWithLimit(3, "shared again");
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await get(instances[i % 3]!.url, shared)).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  expect(instances.map((i) => i.output()).join("")).not.toContain(url); // the store's URL (it may hold a password) is not logged
}, 40_000);

/** Waits (polling) until `done` holds: the access log reaches stdout in batches. */
async function logged(done: () => boolean | Promise<boolean>, withinMs = 5_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await done()) && Date.now() < until) await Bun.sleep(100);
}
