import { expect, test } from "bun:test";
import { anonymousResidentBytes, MemoryTarget } from "../../src/ops/memoryTarget.ts";
import { rssAnonMb } from "../support/processMemory.ts";

const MB = 1024 * 1024;

/** A target of 100 MB over a memory reading and a clock the test moves, counting collections. */
function target(options: { minGapMs?: number; maxGapMs?: number } = {}) {
  let bytes = 50 * MB;
  let now = 0;
  let collections = 0;
  const memory = new MemoryTarget(100 * MB, { readBytes: () => bytes, collect: () => collections++, now: () => now, ...options });
  return {
    memory: (mb: number) => (bytes = mb * MB),
    wait: (ms: number) => (now += ms),
    check: () => memory.check(),
    collections: () => collections,
  };
}

test("under the target nothing is collected; over it, a full collection at once", () => {
  const t = target();
  expect(t.check()).toBe("under");
  t.memory(100); // at the target is not over it
  expect(t.check()).toBe("under");
  t.memory(101);
  expect(t.check()).toBe("collected");
  expect(t.collections()).toBe(1);
});

test("two collections are at least the shortest wait apart, however long memory stays over", () => {
  const t = target({ minGapMs: 1_000 });
  t.memory(150);
  expect(t.check()).toBe("collected");
  t.wait(250);
  expect(t.check()).toBe("waiting");
  t.memory(90); // the collection worked
  t.wait(250);
  expect(t.check()).toBe("under");
  t.memory(150);
  t.wait(250);
  expect(t.check()).toBe("waiting"); // 750 ms after the last one
  t.wait(250);
  expect(t.check()).toBe("collected");
  expect(t.collections()).toBe(2);
});

test("a target collections cannot reach is backed off from: each wait twice the last, up to the longest, said once", () => {
  const t = target({ minGapMs: 1_000, maxGapMs: 8_000 });
  t.memory(300); // what is live is over the target: no collection brings it under
  const outcomes: string[] = [];
  const at: number[] = [];
  for (let ms = 0; ms <= 40_000; ms += 250) {
    const outcome = t.check();
    if (outcome !== "waiting") {
      outcomes.push(outcome);
      at.push(ms);
    }
    t.wait(250);
  }
  // 0, then 1, 2, 4 and 8 s apart, then every 8 s.
  expect(at).toEqual([0, 1_000, 3_000, 7_000, 15_000, 23_000, 31_000, 39_000]);
  expect(outcomes.filter((o) => o === "out-of-reach")).toHaveLength(1);
  expect(outcomes[3]).toBe("out-of-reach"); // at 7 s, the wait having reached 8 s
});

test("memory seen under the target again starts the waits over from the shortest", () => {
  const t = target({ minGapMs: 1_000, maxGapMs: 60_000 });
  t.memory(300);
  t.check(); // 0 s
  t.wait(1_000);
  t.check(); // 1 s: the wait is now 2 s
  t.memory(90);
  t.wait(250);
  expect(t.check()).toBe("under");
  t.memory(300);
  t.wait(750); // 1 s after the last collection: the shortest wait again
  expect(t.check()).toBe("collected");
});

test("where memory cannot be read (no /proc), nothing is ever collected", () => {
  let collections = 0;
  const memory = new MemoryTarget(1, { readBytes: () => undefined, collect: () => collections++ });
  expect(memory.check()).toBe("under");
  expect(collections).toBe(0);
});

test("this process's anonymous memory is read as /proc/self/status reports it", () => {
  const reported = rssAnonMb(process.pid) * MB;
  const read = anonymousResidentBytes()!;
  // Read a moment apart: the same within a few MB.
  expect(Math.abs(read - reported)).toBeLessThan(8 * MB);
  expect(read).toBeGreaterThan(MB);
});
