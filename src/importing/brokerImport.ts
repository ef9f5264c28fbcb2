import { brokerSlugFor } from "../domain/brokerSlug.ts";
import { MAX_OFFICES, brokerRecordSchema, type BrokerRecord } from "../schemas/directoryRecords.ts";
import type { ImportInput } from "./byteSource.ts";
import { decodeCells } from "./cellDecoding.ts";
import { DuplicateKeys } from "./duplicateKeys.ts";
import type { ImportFormat } from "./formatDetection.ts";
import type { ImportEvent } from "./importEvent.ts";
import { BROKER_COLUMNS, CELL_KINDS, CSV_BROKER_COLUMNS, CSV_OFFICE_COLUMNS } from "./importColumns.ts";
import { withoutFields } from "./jsonRecord.ts";
import { unreadableEvent, validateRecord } from "./recordEvents.ts";
import type { SourceRecord } from "./sourceRecord.ts";
import { readSourceRecords } from "./sourceRecords.ts";
import { atLine, cellAt, type Locate } from "./zodRowErrors.ts";

/** Fields of the detail answer (spec 2.2) the server computes: a JSON record may carry them; they are ignored. */
const COMPUTED_BROKER_FIELDS = ["id", "rating", "averageRating", "reviewCount", "province", "city", "createdAt", "updatedAt"];
const COMPUTED_OFFICE_FIELDS = ["id"];

/**
 * The brokers of an import file, validated, in file order (see src/importing/README.md). In
 * CSV a broker is its run of consecutive rows with the same key (externalId, else slug, else the
 * slug its name and city make), one office a row, the broker's fields from the first row. The
 * rows of one broker must be next to each other: a later run with the same key is a duplicate
 * (reported; the last wins), which keeps memory to one broker whatever the file's size.
 * Throws ImportFileError before the first event when the file is not one we read. `onFormat` is
 * told the file's format before the first event: a CSV has no column for an office's own phone,
 * which a writer then keeps as stored rather than clearing.
 */
export async function* readBrokerImport(input: ImportInput, onFormat?: (format: ImportFormat) => void): AsyncGenerator<ImportEvent<BrokerRecord>> {
  const { format, records } = await readSourceRecords(input, BROKER_COLUMNS);
  onFormat?.(format);
  const csv = format === "csv";
  const duplicates = new DuplicateKeys(
    csv ? "this broker replaces that one (the last wins); a broker's rows must be next to each other" : "this broker replaces that one (the last wins)",
  );
  for await (const event of csv ? csvBrokers(records) : jsonBrokers(records)) {
    if (event.kind === "failed") yield event;
    else if (event.record.externalId !== null) yield duplicates.mark(event, "externalId", event.record.externalId);
    else yield duplicates.mark(event, "slug", event.record.slug);
  }
}

async function* jsonBrokers(records: AsyncIterable<SourceRecord>): AsyncGenerator<ImportEvent<BrokerRecord>> {
  for await (const record of records) {
    if (record.error) yield unreadableEvent(record);
    else yield validateRecord(brokerRecordSchema, jsonBroker(record.values), record.line, atLine(record.line));
  }
}

function jsonBroker(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const broker = withoutFields(values, COMPUTED_BROKER_FIELDS);
  if (Array.isArray(broker.locations)) {
    broker.locations = broker.locations.map((office: unknown) => (isObject(office) ? withoutFields(office, COMPUTED_OFFICE_FIELDS) : office));
  }
  return broker;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

interface OfficeRow {
  line: number;
  values: Record<string, unknown>;
}

async function* csvBrokers(records: AsyncIterable<SourceRecord>): AsyncGenerator<ImportEvent<BrokerRecord>> {
  let key = "";
  let rows: OfficeRow[] = [];
  for await (const record of records) {
    if (record.error) {
      // An unreadable row has no key: it fails alone, and the broker around it goes on.
      yield unreadableEvent(record);
      continue;
    }
    const values = decodeCells(record.values, CELL_KINDS);
    const rowKey = groupKey(values, record.line);
    if (rows.length > 0 && rowKey === key) {
      // Past the most offices a broker may have, rows are counted out rather than kept: the schema refuses the broker.
      if (rows.length <= MAX_OFFICES) rows.push({ line: record.line, values });
      continue;
    }
    if (rows.length > 0) yield validateOffices(rows);
    key = rowKey;
    rows = [{ line: record.line, values }];
  }
  if (rows.length > 0) yield validateOffices(rows);
}

/** The key that groups a broker's rows; a row with nothing to key on stands alone. */
function groupKey(values: Readonly<Record<string, unknown>>, line: number): string {
  const { externalId, slug, name, city } = values;
  if (typeof externalId === "string") return `externalId\0${externalId}`;
  if (typeof slug === "string") return `slug\0${slug}`;
  const made = typeof name === "string" && typeof city === "string" ? brokerSlugFor(name, city) : "";
  return made === "" ? `line\0${line}` : `slug\0${made}`;
}

const brokerFields = new Set(CSV_BROKER_COLUMNS);
const officeFields = new Set(CSV_OFFICE_COLUMNS);

function pick(values: Readonly<Record<string, unknown>>, fields: ReadonlySet<string>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name in values) if (fields.has(name)) picked[name] = values[name];
  return picked;
}

function validateOffices(rows: readonly OfficeRow[]): ImportEvent<BrokerRecord> {
  const first = rows[0]!;
  const candidate = { ...pick(first.values, brokerFields), locations: rows.map((row) => pick(row.values, officeFields)) };
  // An office's problem is reported on its own row.
  const locate: Locate = (path) => {
    const office = path[0] === "locations" && typeof path[1] === "number" ? rows[path[1]] : undefined;
    return office ? cellAt(office.line)(path.slice(2)) : cellAt(first.line)(path);
  };
  return validateRecord(brokerRecordSchema, candidate, first.line, locate);
}
