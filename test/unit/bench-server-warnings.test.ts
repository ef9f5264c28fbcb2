/**
 * The bench's count of the server's warnings and errors (scripts/bench/serverWarnings.ts): request
 * lines and text that is not the log's JSON are skipped, warn and error lines are counted by
 * message, and a flood of distinct messages stays bounded.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countWarning, serverWarnings, type WarningCounts } from "../../scripts/bench/serverWarnings.ts";

const dir = mkdtempSync(join(tmpdir(), "bench-warnings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("warn and error lines are counted by message; request lines and garbage are not", async () => {
  const log = join(dir, "server.log");
  const lines = [
    '{"time":"2026-11-27T16:00:00.000Z","level":"info","msg":"request","requestId":"a","method":"GET","route":"/healthz","status":200,"ms":0.1}',
    '{"time":"2026-11-27T16:00:00.000Z","level":"warn","msg":"memory stays over MEMORY_TARGET_MB","rssAnonMb":300}',
    '{"time":"2026-11-27T16:00:01.000Z","level":"warn","msg":"memory stays over MEMORY_TARGET_MB","rssAnonMb":310}',
    '{"time":"2026-11-27T16:00:02.000Z","level":"error","msg":"procedure failed","route":"/api/v1/leads"}',
    'not json "level":"warn" at all',
    '{"msg":"an info line quoting \\"level\\":\\"warn\\"","level":"info"}',
  ];
  writeFileSync(log, lines.join("\n") + "\n");
  expect(await serverWarnings(log)).toEqual({ "warn: memory stays over MEMORY_TARGET_MB": 2, "error: procedure failed": 1 });
});

test("past 100 distinct messages the rest count as other", () => {
  const counts: WarningCounts = {};
  for (let i = 0; i < 150; i++) countWarning(counts, JSON.stringify({ level: "warn", msg: `message ${i}` }));
  countWarning(counts, JSON.stringify({ level: "warn", msg: "message 3" }));
  expect(Object.keys(counts).length).toBe(101);
  expect(counts.other).toBe(50);
  expect(counts["warn: message 3"]).toBe(2);
});
