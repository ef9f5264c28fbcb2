import type { z } from "zod";
import type { ImportFileResult, importFileInput } from "../../src/router/directory/directoryImportFile.ts";

/**
 * Sends an import file to directory.importFile in parts: a request body holds 64 KiB at most,
 * and a part at a time lets the page show progress. Parts are cut at line breaks only; the
 * server reads each with the import's engine (csv-parse) and, when a part may end inside a
 * record, hands the last record back (`nextLine`), so nothing here parses CSV: it only needs to
 * know whether to repeat the header row, which a CSV file has and an NDJSON file has not.
 */

/** Room for a part's text inside a 64 KiB body, with its JSON escapes and the other fields. */
export const PART_BYTES = 56 * 1024;

/** One request of the upload: directory.importFile's input, every field the sender sets. */
export type ImportFileRequest = Required<Pick<z.input<typeof importFileInput>, "kind" | "text" | "name" | "startLine" | "final" | "dryRun">>;

/** The whole file's report: the parts' counts added up, their errors in file order. */
export type ImportTotals = ImportFileResult["summary"] & Pick<ImportFileResult, "errors">;

const encoder = new TextEncoder();
/** A line's bytes once in a JSON string (quotes and backslashes escaped), plus its line break. */
const jsonBytes = (line: string) => encoder.encode(JSON.stringify(line)).length;

/** Every part of the file, sent one after another; `progress` is told the share of lines done (0 to 1). */
export async function sendInParts(
  file: { name: string; text: string },
  options: { kind: ImportFileRequest["kind"]; dryRun: boolean; partBytes?: number },
  send: (request: ImportFileRequest) => Promise<ImportFileResult>,
  progress: (done: number) => void = () => {},
): Promise<ImportTotals> {
  const lines = file.text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  // `{` starts NDJSON and `[` a JSON array (one value: sent whole); anything else is CSV, whose first line is its header.
  const csv = !/^\uFEFF?\s*[{[]/.test(file.text);
  const array = /^\uFEFF?\s*\[/.test(file.text);
  const header = csv ? lines[0] ?? "" : undefined;
  const budget = array ? Infinity : (options.partBytes ?? PART_BYTES) - (header === undefined ? 0 : jsonBytes(header));
  const totals: ImportTotals = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  let index = csv ? 1 : 0;
  // A part whose one record was handed back whole (it may go on past the part) is sent again, twice as long.
  let room = budget;
  do {
    let end = index;
    let bytes = 0;
    // At least one line a part (a longer one is the server's to refuse, 413), then as many as fit.
    while (end < lines.length && (end === index || bytes + jsonBytes(lines[end]!) <= room)) bytes += jsonBytes(lines[end++]!);
    const final = end >= lines.length;
    const body = lines.slice(index, end).join("\n") + "\n";
    const answer = await send({ kind: options.kind, name: file.name, text: header === undefined ? body : `${header}\n${body}`, startLine: index + 1, final, dryRun: options.dryRun });
    totals.created += answer.summary.created;
    totals.updated += answer.summary.updated;
    totals.unchanged += answer.summary.unchanged;
    totals.failed += answer.summary.failed;
    totals.errors.push(...answer.errors);
    // The server held back a record that may go on past this part: the next part starts with it.
    const next = answer.nextLine === null ? end : answer.nextLine - 1;
    room = next === index ? room * 2 : budget;
    index = next;
    progress(Math.min(1, index / Math.max(1, lines.length)));
  } while (index < lines.length);
  return totals;
}
