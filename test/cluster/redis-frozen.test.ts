import { afterAll, beforeAll, expect, test } from "bun:test";
import { createKeyWithCli, runCli, startServe, tempDir, type ServedProcess } from "../cli/cliHarness.ts";
import { eventually } from "../support/eventually.ts";
import { startRedis, type RunningRedis } from "../support/redisServer.ts";
import { childExit } from "../support/childExit.ts";

/**
 * A frozen store (issue 25, item 15): redis-server stopped with SIGSTOP keeps its connections
 * open and answers nothing. Two instances over one database and that store: while it is frozen,
 * keyed requests cost at most ~50 ms more than before (REDIS_TIMEOUT_MS, once; then the circuit
 * is open and the local window answers at once), the episode is logged once per instance, and
 * after SIGCONT the instances share one budget again. Before the circuit breaker, every keyed
 * request waited the 1 s command timeout, for as long as the store stayed frozen.
 */
const tmp = tempDir();
const DB = tmp.path("frozen.db");
/** The bound for what a hung store may add to a keyed request. */
const ADDED_MS = 50;
let redis: RunningRedis;
let instances: ServedProcess[] = [];

const keyWithLimit = async (limit: number, name: string) => (await createKeyWithCli({ DATABASE_PATH: DB }, { workspace: "frozen", name, rateLimit: limit })).key;

beforeAll(async () => {
  redis = await startRedis();
  await runCli(["migrate"], { DATABASE_PATH: DB });
  const serve = () => startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo"], { env: { DATABASE_PATH: DB, REDIS_URL: redis.url } });
  instances = await Promise.all([serve(), serve()]);
}, 30_000);

afterAll(async () => {
  redis?.thaw();
  for (const instance of instances) instance.proc.kill("SIGTERM");
  await Promise.all(instances.map((instance) => childExit(instance.proc)));
  await redis?.stop();
  tmp.remove();
}, 20_000);

const get = (base: string, key: string) => fetch(`${base}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}` } });

/** `count` keyed requests one after another on one instance: each one's milliseconds. */
async function timed(base: string, key: string, count: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await get(base, key);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    ms.push(performance.now() - started);
  }
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const logCount = (instance: ServedProcess, text: string) => instance.output().split(text).length - 1;

test("a frozen store adds at most ~50 ms to keyed requests, is logged once per episode, and the shared limit resumes after SIGCONT", async () => {
  const key = await keyWithLimit(100_000, "busy");
  const [first, second] = instances as [ServedProcess, ServedProcess];
  await timed(first.url, key, 5); // warm: the key cached, the connection up
  const before = await timed(first.url, key, 30);

  redis.freeze();
  // Three seconds frozen: long enough for the probes (one a second) to find it still hung.
  const frozen: number[] = [];
  const frozenAt = performance.now();
  while (performance.now() - frozenAt < 3_000) {
    frozen.push(...(await timed(first.url, key, 1)));
    await Bun.sleep(10); // a steady client, not a flood
  }
  const added = median(frozen) - median(before);
  console.log(
    `frozen store: median ${median(before).toFixed(1)} ms before, ${median(frozen).toFixed(1)} ms frozen (${frozen.length} requests; ` +
      `the first ${frozen[0]!.toFixed(1)} ms, the slowest ${Math.max(...frozen).toFixed(1)} ms)`,
  );
  expect(added, `a frozen store added ${added.toFixed(0)} ms to the median keyed request`).toBeLessThanOrEqual(ADDED_MS);
  // The circuit opened once: the requests after the first did not each wait for the timeout.
  expect(frozen.filter((ms) => ms >= 250).length).toBeLessThanOrEqual(2);
  expect(await eventually(() => logCount(first, "rate-limit store unreachable") === 1, 5_000)).toBe(true);

  redis.thaw();
  // Requests drive the probe (one a second, off their path): back within a few seconds, logged once.
  expect(
    await eventually(async () => {
      await timed(first.url, key, 1);
      return logCount(first, "rate-limit store reachable again") === 1;
    }, 10_000),
  ).toBe(true);
  expect(logCount(first, "rate-limit store unreachable")).toBe(1);
  expect(logCount(first, "rate-limit store reachable again")).toBe(1);

  // One budget across the two instances again (alone, each would admit 3).
  await timed(second.url, key, 1); // the second instance's circuit, if its one request opened it, closes too
  expect(await eventually(async () => (await timed(second.url, key, 1)) && logCount(second, "rate-limit store unreachable") === logCount(second, "rate-limit store reachable again"), 10_000)).toBe(true);
  const shared = await keyWithLimit(3, "shared after thaw");
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await get(instances[i % 2]!.url, shared)).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
}, 40_000);
