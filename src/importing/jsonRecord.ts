import { failedRecord, type SourceRecord } from "./sourceRecord.ts";

/** One JSON object (an NDJSON line, an element of a JSON array) as a record, or why it is not one. */
export function jsonRecord(line: number, text: string): SourceRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message.replace(/^JSON Parse error: /, "") : String(error);
    return failedRecord(line, `is not valid JSON: ${reason}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return failedRecord(line, "must be a JSON object ({…}), one record each");
  }
  return { line, values: { ...value } };
}

/**
 * A JSON record's fields as a record's schema takes them: null means absent (as an empty CSV
 * cell does), and the fields named in `ignored` (the ones the server computes, such as `id` or
 * `rating`, so a detail answer can be fed back) are left out.
 */
export function withoutFields(values: Readonly<Record<string, unknown>>, ignored: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name in values) if (values[name] !== null && !ignored.includes(name)) kept[name] = values[name];
  return kept;
}
