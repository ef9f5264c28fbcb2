import { readBrokerImport } from "../../importing/brokerImport.ts";
import type { ImportInput } from "../../importing/byteSource.ts";
import { detectFormat, SNIFF_BYTES } from "../../importing/formatDetection.ts";
import type { ImportSummary } from "../../importing/importSummary.ts";
import { readReviewImport } from "../../importing/reviewImport.ts";
import type { RowError } from "../../importing/rowError.ts";
import type { Executor } from "../executor.ts";
import type { ImportWrite } from "./importBatch.ts";
import { runImport, type ImportKind } from "./importRun.ts";

/**
 * One part of a file sent in parts (the console uploads a file in request-sized parts, each
 * under the 64 KiB body limit, and shows its progress): consecutive whole lines of the file,
 * a CSV part beginning with the file's header row again.
 */
export interface ImportPart {
  text: string;
  /** The file's name: its extension is checked against the content, as `import` checks it. */
  name?: string;
  /** The file's line where the part's records start (after a CSV part's header row). */
  startLine?: number;
  /**
   * Whether the file ends with this part. A part cut at an arbitrary line may end inside a
   * record (a broker's later office rows, a quoted cell's line breaks), so unless it is the last,
   * its last record is not imported: the answer names its line, where the next part starts (the
   * same line as this part's when that was its only record: the next part must be longer).
   */
  final: boolean;
}

export interface ImportPartResult {
  summary: ImportSummary;
  /** The file's line where the next part must start, when the last record was held back; null when the part was taken whole. */
  nextLine: number | null;
}

const encoder = new TextEncoder();
const inputOf = (text: string, name: string | undefined): ImportInput => ({ bytes: (async function* () { yield encoder.encode(text); })(), name });

/**
 * Imports one part through the import's own reader, checks and writers (runImport), its line
 * numbers turned into the file's. Throws ImportFileError when the part is not a file we read.
 */
export async function importPart(x: Executor, kind: ImportKind, part: ImportPart, how: ImportWrite): Promise<ImportPartResult> {
  const csv = detectFormat(encoder.encode(part.text.slice(0, SNIFF_BYTES)).subarray(0, SNIFF_BYTES), part.name) === "csv";
  const shift = part.startLine === undefined ? 0 : part.startLine - (csv ? 2 : 1);
  const held = part.final ? undefined : await lastRecordLine(kind, part);
  // Only the lines before the held-back record are imported (a CSV part keeps its header, line 1).
  const text = held === undefined ? part.text : part.text.split("\n").slice(0, held - 1).join("\n") + "\n";
  const { summary } = await runImport(x, { kind, input: inputOf(text, part.name), how, sync: false });
  const shifted = (error: RowError): RowError => ({ ...error, line: error.line + shift });
  return { summary: { ...summary, errors: summary.errors.map(shifted) }, nextLine: held === undefined ? null : held + shift };
}

/**
 * The part's line where its last record starts, undefined when it has none. When that is its
 * only record, nothing of the part is imported: the sender sends a longer part from the same line.
 */
async function lastRecordLine(kind: ImportKind, part: ImportPart): Promise<number | undefined> {
  const events = kind === "brokers" ? readBrokerImport(inputOf(part.text, part.name)) : readReviewImport(inputOf(part.text, part.name));
  let last: number | undefined;
  for await (const event of events) last = event.line;
  return last;
}
