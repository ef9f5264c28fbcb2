/**
 * What went wrong with one row of an import file, for the person who fixes the file: the line
 * where the row starts (1 is the first line; a CSV header is line 1), the column or field
 * (`postalCode`, `locations[1].postalCode` in JSON; "" for the row as a whole) and what to do.
 */
export interface RowError {
  line: number;
  field: string;
  message: string;
}

/** `line 842, postalCode: "M5V 3L9" is in Ontario, the row says QC` (or `line 9: …` without a field). */
export function formatRowError(error: RowError): string {
  return `line ${error.line}${error.field === "" ? "" : `, ${error.field}`}: ${error.message}`;
}

/** The file as a whole cannot be imported (not CSV or JSON, unknown columns…): raised before any record. */
export class ImportFileError extends Error {
  override name = "ImportFileError";
}
