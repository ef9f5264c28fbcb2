import type { RowError } from "./rowError.ts";

/**
 * One record as a file holds it, before it means anything: a CSV row's cells by column (text),
 * or a JSON object, with the line it starts on; or why that record could not be read at all.
 */
export type SourceRecord = { line: number; values: Record<string, unknown>; error?: undefined } | { line: number; error: RowError };

/** A record that could not be read, and why. */
export const failedRecord = (line: number, message: string): SourceRecord => ({ line, error: { line, field: "", message } });

/** The complaint for a record that cannot be read, in the same words for every format. */
export const unreadable = {
  tooLong: (max: number) => `is longer than ${max.toLocaleString("en-CA")} characters (1 MiB), the most one record may hold: skipped`,
  nul: "holds a NUL byte (\\0): the file is damaged or not text; remove it",
  notUtf8: "holds bytes that are not UTF-8 text (a file saved as Windows-1252 or Latin-1?): save the file as UTF-8",
};

/** Why a record's raw text cannot be trusted, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\0")) return unreadable.nul;
  // The decoder turns bytes that are not UTF-8 into U+FFFD; a file has no other reason to hold it.
  if (text.includes("\uFFFD")) return unreadable.notUtf8;
  return undefined;
}
