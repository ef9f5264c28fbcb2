/**
 * CSV for spreadsheets (RFC 4180): comma-separated, CRLF line ends, every field quoted with
 * inner quotes doubled, and a UTF-8 byte-order mark first so Excel reads accents right.
 *
 * Formula injection: a spreadsheet runs a cell that starts with = + - or @ (and, in some, a
 * tab or carriage return before them) as a formula. Such cells get a leading apostrophe,
 * which spreadsheets show as text; the value is otherwise kept as it was. A phone number in
 * E.164 (a plus and nothing but 8 to 15 digits, the form leads are stored in) starts with + yet
 * cannot do anything a formula could (no function, no reference): it is kept as it is, quoted,
 * so an export round-trips its phones uncorrupted.
 */
export const UTF8_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;
const E164_PHONE = /^\+[1-9]\d{7,14}$/;

const isFormula = (text: string) => FORMULA_START.test(text) && !E164_PHONE.test(text);

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  const text = typeof value === "number" ? String(value) : isFormula(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

type Row = readonly (string | number | null)[];

/** A whole file: the byte-order mark, the header row, then the rows. */
export function csvDocument(header: readonly string[], rows: readonly Row[]): string {
  return UTF8_BOM + csvRows([header, ...rows]);
}

/** Rows of a file, each ending in CRLF: a later page of a file that csvDocument began. */
export function csvRows(rows: readonly Row[]): string {
  let text = "";
  for (const row of rows) text += row.map(csvCell).join(",") + "\r\n";
  return text;
}
