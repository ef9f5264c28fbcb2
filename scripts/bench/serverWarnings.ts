/**
 * The warnings and errors the server logged during a bench run, counted by message: kept in the
 * results (`serverWarnings`) because the server's log goes with the run's working directory. Why:
 * a run at 1,000 brokers once ended with 470 MB of anonymous memory, and nothing was left to say
 * whether the memory target had warned that its collections could not bring memory down.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** A message counted at most this long: messages are the code's own words, but a log is outside input to this script. */
const MAX_MESSAGE = 200;
/** At most this many distinct messages are counted; the rest add to `other`. */
const MAX_MESSAGES = 100;

export type WarningCounts = Record<string, number>;

/** Counts of the server log's warn and error lines by `level: msg`, streamed (the log of a run is hundreds of MB of request lines). */
export async function serverWarnings(logFile: string): Promise<WarningCounts> {
  const counts: WarningCounts = {};
  const lines = createInterface({ input: createReadStream(logFile, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) countWarning(counts, line);
  return counts;
}

/** Adds `line` to `counts` when it is a warn or error line of the server's JSON log. */
export function countWarning(counts: WarningCounts, line: string): void {
  // Request lines (all but a handful) are info: skipped before any parse.
  if (!line.includes('"level":"warn"') && !line.includes('"level":"error"')) return;
  let entry: { level?: unknown; msg?: unknown };
  try {
    entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
  } catch {
    return;
  }
  if (entry.level !== "warn" && entry.level !== "error") return;
  const key = `${entry.level}: ${String(entry.msg).slice(0, MAX_MESSAGE)}`;
  if (key in counts || Object.keys(counts).length < MAX_MESSAGES) counts[key] = (counts[key] ?? 0) + 1;
  else counts.other = (counts.other ?? 0) + 1;
}
