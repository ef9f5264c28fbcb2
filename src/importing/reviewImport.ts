import { reviewRecordSchema, type ReviewRecord } from "../schemas/directoryRecords.ts";
import type { ImportInput } from "./byteSource.ts";
import { decodeCells } from "./cellDecoding.ts";
import { DuplicateKeys } from "./duplicateKeys.ts";
import type { ImportEvent } from "./importEvent.ts";
import { CELL_KINDS, REVIEW_COLUMNS } from "./importColumns.ts";
import { withoutFields } from "./jsonRecord.ts";
import { unreadableEvent, validateRecord } from "./recordEvents.ts";
import { readSourceRecords } from "./sourceRecords.ts";
import { atLine, cellAt } from "./zodRowErrors.ts";

/** The review's own id in a JSON review (spec 2.3) is the server's: ignored; externalId is the operator's key. */
const COMPUTED_REVIEW_FIELDS = ["id"];

/**
 * The reviews of an import file, validated, in file order: one a row or a JSON record, keyed
 * by externalId (a repeat is reported; the last wins), naming its broker by brokerExternalId or
 * brokerSlug. Whether that broker exists is the writer's to check. Throws ImportFileError before
 * the first event when the file is not one we read.
 */
export async function* readReviewImport(input: ImportInput): AsyncGenerator<ImportEvent<ReviewRecord>> {
  const { format, records } = await readSourceRecords(input, REVIEW_COLUMNS);
  const csv = format === "csv";
  const duplicates = new DuplicateKeys("this review replaces that one (the last wins)");
  for await (const record of records) {
    if (record.error) {
      yield unreadableEvent(record);
      continue;
    }
    const candidate = csv ? decodeCells(record.values, CELL_KINDS) : withoutFields(record.values, COMPUTED_REVIEW_FIELDS);
    const event = validateRecord(reviewRecordSchema, candidate, record.line, csv ? cellAt(record.line) : atLine(record.line));
    yield event.kind === "record" ? duplicates.mark(event, "externalId", event.record.externalId) : event;
  }
}
