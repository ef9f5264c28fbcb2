import { MAX_RECORD_LENGTH } from "./importLimits.ts";
import { jsonRecord } from "./jsonRecord.ts";
import { LineSplitter, type PhysicalLine } from "./lineSplitter.ts";
import { failedRecord, textProblem, unreadable, type SourceRecord } from "./sourceRecord.ts";

/**
 * The records of an NDJSON file: one JSON object a line, blank lines skipped. A bad line
 * (too long, not JSON, not an object) is reported and the next line read.
 */
export async function* ndjsonRecords(text: AsyncIterable<string>): AsyncGenerator<SourceRecord> {
  const splitter = new LineSplitter(MAX_RECORD_LENGTH);
  for await (const chunk of text) yield* lineRecords(splitter.push(chunk));
  yield* lineRecords(splitter.end());
}

function* lineRecords(lines: readonly PhysicalLine[]): Generator<SourceRecord> {
  for (const physical of lines) {
    const { line } = physical;
    if (physical.tooLong) {
      yield failedRecord(line, unreadable.tooLong(MAX_RECORD_LENGTH));
      continue;
    }
    if (physical.text.trim() === "") continue;
    const problem = textProblem(physical.text);
    yield problem ? failedRecord(line, problem) : jsonRecord(line, physical.text);
  }
}
