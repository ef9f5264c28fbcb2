import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { check } from "recheck";
import { scanRegexes } from "../support/sourceRegexes.ts";

const ROOT = join(import.meta.dir, "../..");

/**
 * Every regex in src/ and widget/ is linear-time, proven by recheck's automaton checker (not
 * its fuzzer, and not by eye): a backtracking regex that rescans input (`[a-z]+@` searched
 * through a 15 KB run) stalls the event loop for every request at once. A new regex that is
 * super-linear, or one built from a variable that cannot be analysed, fails here.
 */
describe("regular expressions are linear-time", () => {
  const scan = scanRegexes(ROOT, ["src", "widget"]);

  test("the scan finds the regexes (literals and new RegExp)", () => {
    expect(scan.regexes.length).toBeGreaterThan(50);
    expect(scan.regexes.some((r) => r.file === join("src", "log.ts"))).toBe(true);
  });

  test("no RegExp is built from a non-literal pattern", () => {
    expect(scan.dynamic).toEqual([]);
  });

  test("recheck proves each one linear", async () => {
    const problems: string[] = [];
    for (const regex of scan.regexes) {
      // maxRepeatCount: bounded repeats like {1,128} stay in the automaton checker.
      const result = await check(regex.source, regex.flags, { timeout: 20_000, maxRepeatCount: 200 });
      if (result.status !== "safe" || result.checker !== "automaton") {
        const why = result.status === "vulnerable" ? result.complexity.summary : result.status === "unknown" ? result.error.kind : result.checker;
        problems.push(`${regex.file}: /${regex.source}/${regex.flags} → ${result.status} (${why})`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);

  test("the analyser does flag the shapes it must (the old log scrubber's email pattern)", async () => {
    const result = await check(String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`, "g", { timeout: 20_000 });
    expect(result.status).toBe("vulnerable");
  });
});
