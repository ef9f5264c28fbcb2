/**
 * The bounds an import keeps, whatever the file: memory stays flat however large the file is,
 * and a hostile file costs a report, never the process.
 */

/** Longest row or record read, in characters of text (1 MiB): a longer one is a row error, skipped. */
export const MAX_RECORD_LENGTH = 1024 * 1024;

/** Row errors kept for the summary; past them only the count goes on (the first ones say what to fix). */
export const MAX_REPORTED_ERRORS = 1_000;

/** Keys remembered to report duplicates (a 12-byte fingerprint each, ~100 MB at most). */
export const MAX_TRACKED_KEYS = 4_000_000;
