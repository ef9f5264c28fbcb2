import { expect, test } from "bun:test";
import { InMemoryRateLimiter } from "../../src/auth/rateLimiter.ts";
import { startTestServer } from "../support/server.ts";

test("windows of keys gone quiet are swept", () => {
  const limiter = new InMemoryRateLimiter();
  for (let i = 0; i < 1_000; i++) limiter.consume(`key-${i}`, 10, 0);
  expect(limiter.stats().entries).toBe(1_000);
  limiter.sweep(61_000);
  expect(limiter.stats().entries).toBe(0);
});

test("the windows never pass their cap, even when every key is active", () => {
  const limiter = new InMemoryRateLimiter(100);
  for (let i = 0; i < 1_000; i++) {
    limiter.consume(`key-${i}`, 10, i);
    expect(limiter.stats().entries).toBeLessThanOrEqual(100);
  }
  // A key still present keeps its count.
  const last = limiter.consume("key-999", 10, 1_000);
  expect(last.remaining).toBe(8);
});

test("the running server sweeps on a schedule", async () => {
  const server = await startTestServer({ demo: false });
  try {
    const limiter = server.app.services.rateLimiter as InMemoryRateLimiter;
    for (let i = 0; i < 50; i++) limiter.consume(`gone-${i}`, 10, 0);
    // The maintenance timer runs every minute; move the clock past the window and wait for it.
    server.app.services.now = () => 10 * 60_000;
    server.app.maintenance.stop();
    const { startMaintenance } = await import("../../src/ops/maintenance.ts");
    const maintenance = startMaintenance(server.app.services, { sweepEveryMs: 20 });
    await Bun.sleep(100);
    maintenance.stop();
    expect(limiter.stats().entries).toBe(0);
  } finally {
    await server.close();
  }
});
