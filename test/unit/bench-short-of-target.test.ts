import { expect, test } from "bun:test";
import { shortOfTarget } from "../../scripts/bench/missStages.ts";
import type { ScenarioId } from "../../scripts/bench/scenarios.ts";

// The bench profiles again, stage by stage, each scenario short of its issue-30 target:
// these say which ones it picks.
const run = (id: ScenarioId, ratioToCeiling: number | null) => ({ scenario: { id }, ratioToCeiling });

test("a scenario below its target is picked, with the target; one at or above it is not", () => {
  const picked = shortOfTarget([run("detail", 0.19), run("reviews", 0.17), run("mcp", 0.234), run("detailHot", 0.5)], 100_000);
  expect(picked.map((p) => `${p.scenario.id} ${p.target}`)).toEqual(["detail 0.2", "mcp 0.3"]);
});

test("q's target is asked of 100,000 brokers only; scenarios without a target or a figure are never picked", () => {
  expect(shortOfTarget([run("search", 0.15)], 1_000)).toEqual([]);
  expect(shortOfTarget([run("search", 0.15)], 100_000).map((p) => p.scenario.id)).toEqual(["search"]);
  expect(shortOfTarget([run("quote", 0.01), run("detail", null)], 100_000)).toEqual([]);
});
