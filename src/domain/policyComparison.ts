import { formatDollars, formatWholeDollars } from "./rating/money.ts";

/** One side of a comparison, money in integer cents. */
export interface ComparablePolicy {
  carrier: string;
  annualCents: number;
  monthlyCents: number;
  coverage: string;
  deductible: number;
}

export interface CoverageDifference {
  /** Coverage items only policy A lists. */
  onlyInA: string[];
  onlyInB: string[];
  inBoth: string[];
}

export interface PolicyDifferences {
  /** B minus A, in cents: positive when B costs more. */
  annualCents: number;
  monthlyCents: number;
  /** B minus A, in dollars: positive when B's deductible is higher. */
  deductible: number;
  cheaper: "A" | "B" | "same";
  coverage: CoverageDifference;
}

/**
 * Coverage labels are comma-separated items ("Third-party liability $2,000,000, collision");
 * amounts keep their thousands commas because items are split on a comma followed by space.
 */
export function coverageItems(label: string): string[] {
  return label
    .split(/,\s+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export function compareCoverage(a: string, b: string): CoverageDifference {
  const itemsA = coverageItems(a);
  const itemsB = coverageItems(b);
  const key = (item: string) => item.toLowerCase().replace(/\s+/g, " ");
  const keysA = new Set(itemsA.map(key));
  const keysB = new Set(itemsB.map(key));
  return {
    onlyInA: itemsA.filter((i) => !keysB.has(key(i))),
    onlyInB: itemsB.filter((i) => !keysA.has(key(i))),
    inBoth: itemsA.filter((i) => keysB.has(key(i))),
  };
}

export function differencesOf(a: ComparablePolicy, b: ComparablePolicy): PolicyDifferences {
  const annualCents = b.annualCents - a.annualCents;
  return {
    annualCents,
    monthlyCents: b.monthlyCents - a.monthlyCents,
    deductible: b.deductible - a.deductible,
    // The yearly cost decides; monthly figures are rounded from it.
    cheaper: annualCents > 0 ? "A" : annualCents < 0 ? "B" : "same",
    coverage: compareCoverage(a.coverage, b.coverage),
  };
}

/** One plain-language line a person can read aloud: who is cheaper, by how much, and the trade-offs. */
export function summarize(a: ComparablePolicy, b: ComparablePolicy, d: PolicyDifferences): string {
  const sameName = a.carrier.trim().toLowerCase() === b.carrier.trim().toLowerCase();
  const nameA = sameName ? `Policy A (${a.carrier})` : a.carrier;
  const nameB = sameName ? `Policy B (${b.carrier})` : b.carrier;
  const clauses: string[] = [];

  if (d.cheaper === "same") {
    clauses.push(`${nameA} and ${nameB} cost the same, ${formatDollars(a.annualCents)} a year`);
  } else {
    const [cheap, dear] = d.cheaper === "A" ? [nameA, nameB] : [nameB, nameA];
    const monthly = Math.abs(d.monthlyCents);
    clauses.push(
      `${cheap} is cheaper than ${dear} by ${formatDollars(Math.abs(d.annualCents))} a year` +
        (monthly > 0 ? ` (${formatDollars(monthly)} a month)` : ""),
    );
  }

  const deductible = (dollars: number) => (Number.isInteger(dollars) ? formatWholeDollars(dollars) : formatDollars(Math.round(dollars * 100)));
  if (d.deductible === 0) clauses.push(`both have a ${deductible(a.deductible)} deductible`);
  else {
    const low = d.deductible > 0 ? nameA : nameB;
    clauses.push(`${low}'s deductible is ${deductible(Math.abs(d.deductible))} lower`);
  }

  const extras = (name: string, items: string[]) => (items.length > 0 ? `${name} also lists ${items.join(", ")}` : undefined);
  const coverage = [extras(nameA, d.coverage.onlyInA), extras(nameB, d.coverage.onlyInB)].filter(Boolean);
  clauses.push(coverage.length > 0 ? coverage.join("; ") : "coverage is the same");

  return `${clauses.join("; ")}.`;
}
