import { expect, test } from "bun:test";
import { compareCoverage, coverageItems, differencesOf, summarize, type ComparablePolicy } from "../../src/domain/policyComparison.ts";

const a: ComparablePolicy = { carrier: "Intact Insurance", annualCents: 210000, monthlyCents: 17500, coverage: "Third-party liability $1,000,000, collision, comprehensive", deductible: 1000 };
const b: ComparablePolicy = { carrier: "Aviva Canada", annualCents: 198000, monthlyCents: 16500, coverage: "Third-party liability $2,000,000, collision, comprehensive, accident forgiveness", deductible: 500 };

test("coverage items keep the thousands commas of amounts", () => {
  expect(coverageItems(a.coverage)).toEqual(["Third-party liability $1,000,000", "collision", "comprehensive"]);
});

test("coverage differences, ignoring case", () => {
  expect(compareCoverage("Collision, Comprehensive", "collision, rental car")).toEqual({ onlyInA: ["Comprehensive"], onlyInB: ["rental car"], inBoth: ["Collision"] });
});

test("differences are B minus A and name the cheaper", () => {
  const d = differencesOf(a, b);
  expect(d).toMatchObject({ annualCents: -12000, monthlyCents: -1000, deductible: -500, cheaper: "B" });
  expect(differencesOf(a, a).cheaper).toBe("same");
});

test("the summary is one plain line: cheaper by how much, deductible, coverage trade-offs", () => {
  expect(summarize(a, b, differencesOf(a, b))).toBe(
    "Aviva Canada is cheaper than Intact Insurance by $120.00 a year ($10.00 a month); Aviva Canada's deductible is $500 lower; " +
      "Intact Insurance also lists Third-party liability $1,000,000; Aviva Canada also lists Third-party liability $2,000,000, accident forgiveness.",
  );
  expect(summarize(a, a, differencesOf(a, a))).toBe(
    "Policy A (Intact Insurance) and Policy B (Intact Insurance) cost the same, $2,100.00 a year; both have a $1,000 deductible; coverage is the same.",
  );
});
