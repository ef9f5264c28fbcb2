import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * The running server gives memory back once traffic stops (src/ops/idleCollector.ts): after a
 * thousand requests and a second with none, it runs one full collection and says so at debug.
 */
let server: TestServer;
const logLines: string[] = [];
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("debug", (line) => logLines.push(line)) } });
});
afterAll(() => server.close());

const collections = () => logLines.filter((line) => line.includes('"msg":"idle: memory collected"')).length;
const waitForChecks = (n: number) => Bun.sleep(n * 1_000 + 300);

test("a thousand requests, then a quiet second: one collection; quiet afterwards: none more", async () => {
  await waitForChecks(1);
  const before = collections();
  for (let batch = 0; batch < 10; batch++) {
    const answers = await Promise.all(Array.from({ length: 100 }, () => fetch(`${server.url}/healthz`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
  }
  await waitForChecks(2);
  expect(collections()).toBe(before + 1);
  await waitForChecks(1);
  expect(collections()).toBe(before + 1);
}, 15_000);
