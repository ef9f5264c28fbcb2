/**
 * How scripts/bench/runtimeShare.ts reads perf's report and the engine's GC log
 * (scripts/bench/runtimeShares.ts): object files sorted into kernel, runtime and compiled
 * JavaScript, shares that sum to one, call-graph lines skipped; collections counted by kind
 * with their pauses, text between them ignored. The samples are perf's and JavaScriptCore's
 * own output, as captured on this machine.
 */
import { expect, test } from "bun:test";
import { kindOfDso, parseDsoReport, parseGcLog } from "../../scripts/bench/runtimeShares.ts";

const REPORT = `# To display the perf.data header info, please use --header/--header-only options.
#
# Samples: 10K of event 'cpu-clock'
# Event count (approx.): 5084500000
#
# Overhead  Shared Object
# ........  .................
#
    46.08%  bun.exe
            |
            --12.45%--sock_def_readable
    40.86%  [kernel.kallsyms]
     8.56%  [JIT] tid 25950
     3.86%  libc.so.6
     0.64%  [vdso]
`;

test("object files are sorted into kernel, runtime and compiled JavaScript", () => {
  expect(kindOfDso("[kernel.kallsyms]")).toBe("kernel");
  expect(kindOfDso("virtio_net.ko")).toBe("kernel");
  expect(kindOfDso("[JIT] tid 25950")).toBe("javascript");
  expect(kindOfDso("jitted-25950-12.so")).toBe("javascript");
  expect(kindOfDso("bun.exe")).toBe("runtime");
  expect(kindOfDso("libc.so.6")).toBe("runtime");
  expect(kindOfDso("[vdso]")).toBe("runtime");
});

test("a report's shares sum to one and skip comments and call-graph lines", () => {
  const { shares, rows } = parseDsoReport(REPORT);
  expect(rows.map((row) => row.dso)).toEqual(["bun.exe", "[kernel.kallsyms]", "[JIT] tid 25950", "libc.so.6", "[vdso]"]);
  expect(shares.kernel).toBeCloseTo(0.4086, 4);
  expect(shares.javascript).toBeCloseTo(0.0856, 4);
  expect(shares.runtime).toBeCloseTo(0.4608 + 0.0386 + 0.0064, 4);
  expect(shares.kernel + shares.runtime + shares.javascript).toBeCloseTo(1, 9);
});

test("an empty report has no shares", () => {
  expect(parseDsoReport("# nothing sampled\n").shares).toEqual({ kernel: 0, runtime: 0, javascript: 0 });
});

test("collections are counted by kind with their pauses; other lines are skipped", () => {
  const log = [
    "[GC<0x7f6aaa400108>: START M 257532kb => EdenCollection, a=0kb hf=0.000 mu=0.600 v=0kb (C:0 M:0 P1:0) o=22 b=4 i#1:N<CsMsrShDMsm(4)> 0+0 v=50kb => 247008kb, p=1.102460ms (max 7.162586), cycle 1.071915ms END]",
    "[GC<0x7f6aaa400108>: finalize 0.013279ms]",
    '{"time":"2026-11-27T19:00:00.000Z","level":"info","msg":"request"}',
    "[GC<0x7f6aaa400108>: START M 300000kb => FullCollection, a=0kb hf=0.000 mu=0.600 v=0kb => 150000kb, p=35.5ms (max 35.5), cycle 36ms END]",
    "GC END!",
    "[GC<0x7f6aaa400108>: START M 258012kb => EdenCollection, a=0kb => 247455kb, p=1.361486ms (max 7.162586), cycle 1.327916ms END]",
  ].join("\n");
  expect(parseGcLog(log)).toEqual({ eden: 2, full: 1, pausesMs: [1.10246, 35.5, 1.361486] });
  expect(parseGcLog("no collections here")).toEqual({ eden: 0, full: 0, pausesMs: [] });
});
