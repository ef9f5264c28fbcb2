import type { z } from "zod";
import type { ImportEvent } from "./importEvent.ts";
import type { SourceRecord } from "./sourceRecord.ts";
import { rowErrors, type Locate } from "./zodRowErrors.ts";

/** A record checked against its schema: the validated record, or every problem found in it. */
export function validateRecord<T>(schema: z.ZodType<T>, candidate: unknown, line: number, locate: Locate): ImportEvent<T> {
  const result = schema.safeParse(candidate);
  return result.success ? { kind: "record", line, record: result.data } : { kind: "failed", line, errors: rowErrors(result.error, locate) };
}

/** A record the file could not give at all (see SourceRecord). */
export function unreadableEvent(record: Extract<SourceRecord, { error: object }>): ImportEvent<never> {
  return { kind: "failed", line: record.line, errors: [record.error] };
}
