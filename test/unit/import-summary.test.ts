import { expect, test } from "bun:test";
import type { ImportEvent } from "../../src/importing/importEvent.ts";
import { MAX_REPORTED_ERRORS } from "../../src/importing/importLimits.ts";
import { ImportTally } from "../../src/importing/importSummary.ts";
import { KeyTracker } from "../../src/importing/keyTracker.ts";
import { formatRowError } from "../../src/importing/rowError.ts";

test("the summary has the CLI's --json shape: the writer's counts, then failed records and their errors in file order", () => {
  const tally = new ImportTally();
  const events: ImportEvent<string>[] = [
    { kind: "record", line: 2, record: "a" },
    { kind: "failed", line: 3, errors: [{ line: 3, field: "postalCode", message: "bad" }, { line: 4, field: "city", message: "is required" }] },
    { kind: "record", line: 5, record: "a", duplicate: { line: 5, field: "externalId", message: '"a" was also on line 2' } },
  ];
  for (const event of events) tally.observe(event);
  const summary = tally.summary({ created: 1, updated: 1, unchanged: 0, unpublished: 0 });
  expect(JSON.parse(JSON.stringify(summary))).toEqual({
    created: 1,
    updated: 1,
    unchanged: 0,
    unpublished: 0,
    failed: 1,
    errors: [
      { line: 3, field: "postalCode", message: "bad" },
      { line: 4, field: "city", message: "is required" },
      { line: 5, field: "externalId", message: '"a" was also on line 2' },
    ],
    errorsOmitted: 0,
  });
});

test("errors past the reported maximum are counted, not kept", () => {
  const tally = new ImportTally();
  for (let line = 1; line <= MAX_REPORTED_ERRORS + 5; line++) tally.observe({ kind: "failed", line, errors: [{ line, field: "", message: "x" }] });
  const summary = tally.summary({ created: 0, updated: 0, unchanged: 0, unpublished: 0 });
  expect([summary.failed, summary.errors.length, summary.errorsOmitted]).toEqual([MAX_REPORTED_ERRORS + 5, MAX_REPORTED_ERRORS, 5]);
});

test("a row error in words", () => {
  expect(formatRowError({ line: 842, field: "postalCode", message: '"M5V 3L9" is in Ontario, the row says QC' })).toBe('line 842, postalCode: "M5V 3L9" is in Ontario, the row says QC');
  expect(formatRowError({ line: 9, field: "", message: "holds a NUL byte" })).toBe("line 9: holds a NUL byte");
});

test("the key tracker tells a repeat from 300,000 distinct keys, and gives the line it was last on", () => {
  const keys = new KeyTracker();
  let repeats = 0;
  for (let i = 0; i < 300_000; i++) if (keys.seen(`RV-${i}`, i + 2) !== undefined) repeats++;
  expect(repeats).toBe(0);
  expect(keys.seen("RV-123", 400_000)).toBe(125);
  expect(keys.seen("RV-123", 400_001)).toBe(400_000);
  expect(keys.full).toBe(false);
});
