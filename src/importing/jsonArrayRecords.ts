import { MAX_RECORD_LENGTH } from "./importLimits.ts";
import { jsonRecord } from "./jsonRecord.ts";
import { failedRecord, textProblem, unreadable, type SourceRecord } from "./sourceRecord.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const OPENERS: Readonly<Record<number, number>> = { 0x7b: 0x7d, 0x5b: 0x5d }; // { → }, [ → ]
const CLOSERS = new Set([0x7d, 0x5d]);

/**
 * The elements of a JSON array (`[{…}, {…}]`), one at a time, each with the line it starts on:
 * the array is never held whole. A scan finds where each element ends (brackets outside
 * strings); JSON.parse reads the element. A bad element is reported and the next one read; an
 * element over MAX_RECORD_LENGTH is skipped unread. Brackets that do not match, or an array that
 * is never closed, end the reading with an error on the line where it went wrong: past that
 * point no element boundary can be trusted.
 */
export async function* jsonArrayRecords(text: AsyncIterable<string>): AsyncGenerator<SourceRecord> {
  const scan = new ArrayScan();
  for await (const chunk of text) {
    yield* scan.push(chunk);
    if (scan.broken) return;
  }
  yield* scan.end();
}

class ArrayScan {
  broken = false;
  private line = 1;
  /** The brackets open at this point, innermost last: one (the array's) between elements, none after it. */
  private closers: number[] = [];
  private started = false;
  private inString = false;
  private escaped = false;
  private element: { line: number; parts: string[]; length: number; tooLong: boolean } | undefined;

  *push(chunk: string): Generator<SourceRecord> {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === NEWLINE) this.line++;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (c === 0x20 || c === 0x09 || c === 0x0d || c === NEWLINE) continue;
      if (!this.started) {
        if (c !== 0x5b) return yield* this.fail("must start with [ (a JSON array)");
        this.started = true;
        this.closers.push(0x5d);
        continue;
      }
      if (this.closers.length === 0) return yield* this.fail("has text after the end of the JSON array");
      const depth = this.closers.length;
      if (depth === 1 && (c === COMMA || c === 0x5d)) {
        if (this.element) {
          this.keep(chunk, from, i);
          yield this.finishElement();
        } else if (c === COMMA) return yield* this.fail("has an empty element (a comma with nothing before it)");
        if (c === 0x5d) this.closers.pop();
        continue;
      }
      if (!this.element) {
        this.element = { line: this.line, parts: [], length: 0, tooLong: false };
        from = i;
      }
      if (c === QUOTE) this.inString = true;
      else if (OPENERS[c] !== undefined) this.closers.push(OPENERS[c]!);
      else if (CLOSERS.has(c)) {
        const expected = this.closers.pop()!;
        if (expected !== c) return yield* this.fail(`has a ${String.fromCharCode(c)} where ${String.fromCharCode(expected)} was expected: the JSON array is broken here`);
      }
    }
    if (this.element) this.keep(chunk, from, chunk.length);
  }

  *end(): Generator<SourceRecord> {
    if (!this.started) yield* this.fail("is empty: a JSON array was expected");
    else if (this.closers.length > 0) yield* this.fail("ends inside the JSON array (was the file cut short?): this element was not read", this.element?.line, "");
  }

  /** Adds the element's text from `from` to `to` of the chunk, unless it has grown too long to keep. */
  private keep(chunk: string, from: number, to: number) {
    const element = this.element!;
    if (element.tooLong) return;
    element.length += to - from;
    if (element.length > MAX_RECORD_LENGTH) {
      element.tooLong = true;
      element.parts = [];
    } else element.parts.push(chunk.slice(from, to));
  }

  private finishElement(): SourceRecord {
    const { line, parts, tooLong } = this.element!;
    this.element = undefined;
    if (tooLong) return failedRecord(line, unreadable.tooLong(MAX_RECORD_LENGTH));
    const text = parts.join("");
    const problem = textProblem(text);
    return problem ? failedRecord(line, problem) : jsonRecord(line, text);
  }

  private *fail(message: string, line = this.line, after = "; nothing after it was read"): Generator<SourceRecord> {
    this.broken = true;
    yield failedRecord(line, message + after);
  }
}
