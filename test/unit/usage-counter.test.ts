import { expect, test } from "bun:test";
import type { DailyUsage, KeyUsageStore } from "../../src/storage/stores/keyUsageStore.ts";
import { UsageCounter, utcDay } from "../../src/storage/stores/usageCounter.ts";

/** A stand-in for the daily table that records what each flush wrote. */
function fakeStore(fail = false) {
  const written: DailyUsage[][] = [];
  const store = {
    add(rows: readonly DailyUsage[]) {
      if (fail) throw new Error("disk full");
      written.push(rows.map((r) => ({ ...r })));
    },
  } as unknown as KeyUsageStore;
  return { store, written };
}

const noon = Date.parse("2026-11-22T12:00:00Z");

test("counts admitted and refused requests per key and UTC day, writing nothing until flushed", () => {
  const { store, written } = fakeStore();
  const counter = new UsageCounter(store);
  counter.record("key_a", noon, true);
  counter.record("key_a", noon + 1, true);
  counter.record("key_a", noon + 2, false);
  counter.record("key_b", noon, true);
  counter.record("key_a", Date.parse("2026-11-23T00:00:00Z"), true); // the next UTC day
  expect(written).toEqual([]);
  counter.flush();
  expect(written[0]).toEqual([
    { keyId: "key_a", day: "2026-11-22", requests: 2, refused: 1 },
    { keyId: "key_b", day: "2026-11-22", requests: 1, refused: 0 },
    { keyId: "key_a", day: "2026-11-23", requests: 1, refused: 0 },
  ]);
  counter.flush();
  expect(written).toHaveLength(1); // nothing pending: no write
});

test("memory is bounded: reaching the cap flushes before a new pair is added", () => {
  const { store, written } = fakeStore();
  const counter = new UsageCounter(store, () => {}, 3);
  for (const id of ["k1", "k2", "k3"]) counter.record(id, noon, true);
  expect(written).toHaveLength(0);
  counter.record("k4", noon, true);
  expect(written).toHaveLength(1);
  expect(written[0]!.map((r) => r.keyId)).toEqual(["k1", "k2", "k3"]);
  expect(counter.pendingFor(new Set(["k4"]), "2026-11-22")).toEqual([{ keyId: "k4", day: "2026-11-22", requests: 1, refused: 0 }]);
});

test("a failed flush keeps the counts for the next one and reports the error", () => {
  const errors: unknown[] = [];
  let fail = true;
  const written: DailyUsage[][] = [];
  const store = { add: (rows: readonly DailyUsage[]) => { if (fail) throw new Error("disk full"); written.push([...rows]); } } as unknown as KeyUsageStore;
  const counter = new UsageCounter(store, (e) => errors.push(e));
  counter.record("k", noon, true);
  counter.flush();
  expect(errors).toHaveLength(1);
  counter.record("k", noon, true);
  fail = false;
  counter.flush();
  expect(written[0]).toEqual([{ keyId: "k", day: "2026-11-22", requests: 2, refused: 0 }]);
});

test("pendingFor filters by key and day", () => {
  const counter = new UsageCounter(fakeStore().store);
  counter.record("mine", Date.parse("2026-11-01T00:00:00Z"), true);
  counter.record("mine", noon, true);
  counter.record("theirs", noon, true);
  expect(counter.pendingFor(new Set(["mine"]), "2026-11-10").map((e) => e.day)).toEqual(["2026-11-22"]);
});

test("utcDay is the UTC calendar day", () => {
  expect(utcDay(Date.parse("2026-11-22T23:59:59.999Z"))).toBe("2026-11-22");
  expect(utcDay(Date.parse("2026-11-23T00:00:00Z"))).toBe("2026-11-23");
});
