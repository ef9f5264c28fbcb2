import { expect, test } from "bun:test";
import { isoTime } from "../../src/domain/isoTime.ts";

// isoTime must write exactly what toISOString writes: review pages and details carry its text.

test("every instant matches toISOString: random ones over years 0–9999, and the edges of days, months, leap years and eras", () => {
  const instants: number[] = [];
  let seed = 2026;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 200_000; i++) instants.push(Math.floor(-62_167_219_200_000 + next() * (253_402_300_799_999 + 62_167_219_200_000)));
  for (const year of [0, 1, 4, 99, 100, 400, 1582, 1600, 1700, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 2400, 9999]) {
    for (const [month, day] of [[0, 1], [1, 28], [1, 29], [2, 1], [11, 31]] as const) {
      const at = new Date(0);
      at.setUTCFullYear(year, month, day);
      at.setUTCHours(0, 0, 0, 0);
      for (const offset of [-1, 0, 1, 999, 1_000, 59_999, 3_599_999, 86_399_999]) instants.push(at.getTime() + offset);
    }
  }
  instants.push(0, -1, 1, Date.now(), -62_167_219_200_000, 253_402_300_799_999);
  let compared = 0;
  for (const ms of instants) {
    if (ms < -62_167_219_200_000 || ms > 253_402_300_799_999) continue;
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    compared++;
  }
  expect(compared).toBeGreaterThan(200_000);
});

test("outside four-digit years, fractions and non-numbers: toISOString's own text or its RangeError", () => {
  for (const ms of [-62_167_219_200_001, 253_402_300_800_000, 8.64e15, -8.64e15, 1.5, -0.5]) {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  }
  for (const ms of [NaN, Infinity, 8.64e15 + 1]) expect(() => isoTime(ms)).toThrow(RangeError);
});
