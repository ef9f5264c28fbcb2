import { expect, test } from "bun:test";
import { ImportProgress } from "../../src/cli/importProgress.ts";

/** What an import's progress writes: on a terminal one line rewritten in place, in a log plain lines, with --quiet nothing. */
function shown(terminal: boolean, quiet: boolean, total: number | undefined, rows: number, read: number): string {
  let out = "";
  const progress = new ImportProgress("import reviews", () => read, total, quiet, terminal, (text) => (out += text));
  progress.update(rows);
  progress.done();
  return out;
}

test("on a terminal: one line, rewritten in place (carriage return, clear), with rows, rate, share and ETA, ended by a line break", () => {
  expect(shown(true, false, 1_000, 120_000, 500)).toMatch(/^\r\x1b\[2Kimport reviews: 120,000 rows, [\d,]+ rows\/s, 50%, ETA \d+:\d\d\n$/);
});

test("not a terminal: plain lines a log keeps; standard input (no size) gives no share nor ETA", () => {
  expect(shown(false, false, undefined, 2_000, 10)).toMatch(/^import reviews: 2,000 rows, [\d,]+ rows\/s\n$/);
});

test("--quiet: nothing at all", () => {
  expect(shown(true, true, 1_000, 10, 500)).toBe("");
});
