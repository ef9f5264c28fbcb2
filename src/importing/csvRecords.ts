import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";
import { MAX_RECORD_LENGTH } from "./importLimits.ts";
import { LineSplitter, countChar, type PhysicalLine } from "./lineSplitter.ts";
import { ImportFileError } from "./rowError.ts";
import { failedRecord, textProblem, unreadable, type SourceRecord } from "./sourceRecord.ts";

/** The columns a kind of file takes, and those it cannot do without (each as its alternatives). */
export interface ColumnPlan {
  columns: readonly string[];
  required: readonly (readonly string[])[];
}

/** Rows parsed by csv-parse in one call: its setup costs about as much as 15 rows. */
const BATCH_ROWS = 1_000;

/**
 * The rows of a CSV file with a header row, each with the line it starts on. csv-parse reads
 * the cells (RFC 4180: quoted cells, doubled quotes, line breaks in quotes); before it, the
 * physical lines are gathered into rows by their quotes (a row ends at a line break outside
 * quotes), which bounds a row at MAX_RECORD_LENGTH, lets a bad row be skipped without losing
 * its neighbours, and numbers rows by the line they start on. The delimiter, `,` or `;`, is the
 * one the header uses. Blank lines are skipped. A header that names a column we do not know,
 * names one twice or lacks a required one refuses the file (ImportFileError).
 */
export async function* csvRecords(text: AsyncIterable<string>, plan: ColumnPlan): AsyncGenerator<SourceRecord> {
  const splitter = new LineSplitter(MAX_RECORD_LENGTH);
  let row: { line: number; parts: string[]; length: number; tooLong: boolean; inQuotes: boolean } | undefined;
  let header: Header | undefined;
  const batch: BatchRow[] = [];

  function* completeRow(done: NonNullable<typeof row>): Generator<SourceRecord> {
    const rowText = done.tooLong ? "" : done.parts.join("\n");
    const problem = done.tooLong ? unreadable.tooLong(MAX_RECORD_LENGTH) : textProblem(rowText);
    if (!header) {
      header = readHeader(rowText, done.line, plan, problem);
    } else if (problem) {
      // Rows come out in the file's order: the batch before this row first.
      yield* parseBatch(batch.splice(0), header);
      yield failedRecord(done.line, problem);
    } else {
      batch.push({ line: done.line, lines: done.parts.length, text: rowText });
      if (batch.length >= BATCH_ROWS) yield* parseBatch(batch.splice(0), header);
    }
  }

  function* take(lines: readonly PhysicalLine[]): Generator<SourceRecord> {
    for (const physical of lines) {
      if (!row) {
        if (!physical.tooLong && physical.text.trim() === "") continue;
        row = { line: physical.line, parts: [], length: 0, tooLong: false, inQuotes: false };
      }
      const odd = physical.tooLong ? physical.oddQuotes : countChar(physical.text, '"') % 2 === 1;
      if (odd) row.inQuotes = !row.inQuotes;
      if (physical.tooLong || row.length + physical.text.length > MAX_RECORD_LENGTH) {
        row.tooLong = true;
        row.parts = [];
      } else if (!row.tooLong) {
        row.parts.push(physical.text);
        row.length += physical.text.length + 1;
      }
      if (!row.inQuotes) {
        const done = row;
        row = undefined;
        yield* completeRow(done);
      }
    }
  }

  for await (const chunk of text) yield* take(splitter.push(chunk));
  yield* take(splitter.end());
  if (!header) throw new ImportFileError("the file has no header row: the first line must name the columns");
  yield* parseBatch(batch.splice(0), header);
  if (row) yield failedRecord(row.line, 'opens a quoted cell that is never closed (a " is missing): the rest of the file was read as that cell');
}

interface BatchRow {
  line: number;
  /** How many physical lines the row spans. */
  lines: number;
  text: string;
}

interface Header {
  delimiter: "," | ";";
  columns: string[];
}

function readHeader(text: string, line: number, plan: ColumnPlan, problem: string | undefined): Header {
  if (problem) throw new ImportFileError(`line ${line}, the header row: ${problem}`);
  // Column names hold neither delimiter, so the one the header uses more is the file's.
  const delimiter = countChar(text, ";") > countChar(text, ",") ? ";" : ",";
  const names = parseRows(text, delimiter)[0] ?? [];
  const byFolded = new Map(plan.columns.map((column) => [column.toLowerCase(), column]));
  const columns = names.map((name) => byFolded.get(name.trim().toLowerCase()) ?? name.trim());
  const unknown = columns.filter((column) => !plan.columns.includes(column));
  const where = `line ${line}, the header row`;
  if (unknown.length > 0) {
    const named = unknown.map((column) => (column === "" ? "(a column with no name)" : JSON.stringify(column.slice(0, 60)))).join(", ");
    throw new ImportFileError(`${where}: ${named} ${unknown.length === 1 ? "is not a column" : "are not columns"} we know. The columns are ${plan.columns.join(", ")}`);
  }
  const repeated = columns.filter((column, index) => columns.indexOf(column) !== index);
  if (repeated.length > 0) throw new ImportFileError(`${where}: ${[...new Set(repeated)].join(", ")} appears more than once`);
  const missing = plan.required.filter((alternatives) => !alternatives.some((column) => columns.includes(column)));
  if (missing.length > 0) throw new ImportFileError(`${where}: a column is missing: ${missing.map((alternatives) => alternatives.join(" or ")).join(", ")}`);
  return { delimiter, columns };
}

/**
 * The rows' cells by column. One csv-parse call for the batch; when it fails (a malformed row)
 * each row is parsed on its own, so the bad one is named and the others are kept.
 */
function* parseBatch(rows: readonly BatchRow[], header: Header): Generator<SourceRecord> {
  if (rows.length === 0) return;
  let parsed: string[][] | undefined;
  try {
    parsed = parseRows(rows.map((row) => row.text).join("\n"), header.delimiter);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
  }
  if (parsed?.length === rows.length) {
    for (let i = 0; i < rows.length; i++) yield byColumn(rows[i]!.line, parsed[i]!, header);
    return;
  }
  for (const row of rows) {
    // Quotes that do not pair up make several lines read as one row: say which, so none goes unnoticed.
    const span = row.lines > 1 ? ` (lines ${row.line}–${row.line + row.lines - 1} were read as this one row; none was imported)` : "";
    try {
      const cells = parseRows(row.text, header.delimiter);
      yield cells.length === 1 ? byColumn(row.line, cells[0]!, header) : failedRecord(row.line, ROW_SPLITS + span);
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      yield failedRecord(row.line, csvErrorMessage(error) + span);
    }
  }
}

function parseRows(text: string, delimiter: string): string[][] {
  return parse(text, { delimiter, record_delimiter: "\n", relax_column_count: true, trim: true, skip_empty_lines: true });
}

function byColumn(line: number, cells: readonly string[], header: Header): SourceRecord {
  if (cells.length > header.columns.length) {
    return failedRecord(line, `has ${cells.length} cells but the header has ${header.columns.length}: a cell that holds the delimiter (${header.delimiter}) must be in double quotes`);
  }
  const values: Record<string, string> = {};
  for (let i = 0; i < cells.length; i++) if (cells[i] !== "") values[header.columns[i]!] = cells[i]!;
  return { line, values };
}

const ROW_SPLITS = 'reads as more than one row: a double quote (") inside a cell that is not in quotes? Put the cell in quotes and double the quote';

function csvErrorMessage(error: CsvError): string {
  switch (error.code) {
    case "INVALID_OPENING_QUOTE":
      return 'has a double quote (") inside a cell that does not start with one: put the whole cell in quotes and double the quote inside ("5"" pipe")';
    case "CSV_INVALID_CLOSING_QUOTE":
      return 'has text after the closing quote of a quoted cell: a quote inside a quoted cell must be doubled ("")';
    default:
      return `cannot be read as CSV: ${error.message}`;
  }
}
