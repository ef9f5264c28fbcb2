import type { ImportInput } from "../../src/importing/byteSource.ts";
import type { ImportEvent } from "../../src/importing/importEvent.ts";
import { formatRowError } from "../../src/importing/rowError.ts";

/**
 * A file's content as an import input, in small chunks (7 bytes by default) so that rows,
 * quoted cells and multi-byte characters are cut across chunk boundaries as a real stream cuts them.
 */
export function importInput(content: string | Uint8Array, name?: string, chunkBytes = 7): ImportInput {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
  }
  return { bytes: chunks(), name };
}

/** Every event of an import, as the lines of its records and its errors in words (`line 3, city: …`). */
export async function readEvents<T>(events: AsyncIterable<ImportEvent<T>>) {
  const records: { line: number; record: T }[] = [];
  const errors: string[] = [];
  const duplicates: string[] = [];
  for await (const event of events) {
    if (event.kind === "failed") errors.push(...event.errors.map(formatRowError));
    else {
      records.push({ line: event.line, record: event.record });
      if (event.duplicate) duplicates.push(formatRowError(event.duplicate));
    }
  }
  return { records, errors, duplicates };
}
