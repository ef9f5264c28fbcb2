import { decodeText, peekBytes, type ImportInput } from "./byteSource.ts";
import { csvRecords, type ColumnPlan } from "./csvRecords.ts";
import { SNIFF_BYTES, detectFormat, type ImportFormat } from "./formatDetection.ts";
import { jsonArrayRecords } from "./jsonArrayRecords.ts";
import { ndjsonRecords } from "./ndjsonRecords.ts";
import type { SourceRecord } from "./sourceRecord.ts";

/**
 * The records of an import file, whatever its format (told from its first bytes and name), as a
 * stream: the file is read chunk by chunk, never whole. Throws ImportFileError when the file is
 * not one we read.
 */
export async function readSourceRecords(input: ImportInput, plan: ColumnPlan): Promise<{ format: ImportFormat; records: AsyncGenerator<SourceRecord> }> {
  const { head, chunks } = await peekBytes(input.bytes, SNIFF_BYTES);
  let format: ImportFormat;
  try {
    format = detectFormat(head, input.name);
  } catch (error) {
    await chunks.return(undefined);
    throw error;
  }
  const text = decodeText(chunks);
  const records = format === "csv" ? csvRecords(text, plan) : format === "ndjson" ? ndjsonRecords(text) : jsonArrayRecords(text);
  return { format, records };
}
