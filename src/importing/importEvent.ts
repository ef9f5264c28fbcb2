import type { RowError } from "./rowError.ts";

/**
 * What reading an import file yields, in the file's order, for a writer to consume: a valid
 * record to store, or a record refused with every reason found. `line` is where the record
 * starts (a broker's first row). `duplicate` says this record's key was already given earlier
 * in the file: the writer stores both in order, so the last wins, and the report says so.
 */
export type ImportEvent<T> =
  | { kind: "record"; line: number; record: T; duplicate?: RowError }
  | { kind: "failed"; line: number; errors: RowError[] };
