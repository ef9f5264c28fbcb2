import { expect, test } from "bun:test";
import { dollarsToCents, formatDollars, monthlyCentsOf, roundHalfAwayFromZero } from "../../src/domain/rating/money.ts";

test("half away from zero", () => {
  expect([2.5, 3.5, -2.5, 2.4999, 0.5].map(roundHalfAwayFromZero)).toEqual([3, 4, -3, 2, 1]);
});

test("monthly = annual / 12 rounded half away from zero on integer cents", () => {
  expect(monthlyCentsOf(1200)).toBe(100); // exact
  expect(monthlyCentsOf(6)).toBe(1); // 0.5 cent rounds up
  expect(monthlyCentsOf(18)).toBe(2); // 1.5 → 2
  expect(monthlyCentsOf(17)).toBe(1); // 1.4166… → 1
  expect(monthlyCentsOf(209936)).toBe(17495); // 17494.666… → 17495
  expect(monthlyCentsOf(120006)).toBe(10001); // 10000.5 → 10001
  expect(monthlyCentsOf(-18)).toBe(-2);
});

test("dollars to cents reads the decimal figure, not its binary approximation", () => {
  expect(1.005 * 100).toBeLessThan(100.5); // the float is just under the half…
  expect(dollarsToCents(1.005)).toBe(101); // …but the figure rounds up
  expect(dollarsToCents(0.1 + 0.2)).toBe(30);
  expect(dollarsToCents(19.99)).toBe(1999);
});

test("formatting", () => {
  expect(formatDollars(123456)).toBe("$1,234.56");
  expect(formatDollars(-550)).toBe("-$5.50");
});
