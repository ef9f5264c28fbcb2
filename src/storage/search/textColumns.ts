import { fileBacked } from "./fileBackedBytes.ts";

/** Bytes a column's buffer starts with; it doubles as it fills, and is cut to size at seal(). */
const INITIAL_BYTES = 64 * 1024;

/**
 * Node's and Bun's Buffer decode a range of UTF-8 with utf8Slice, which @types/node does not
 * declare: 63 ns for 40 bytes here against 102 for toString("utf8", start, end).
 */
type DecodingBuffer = Buffer & { utf8Slice(start: number, end: number): string };

/**
 * A fixed number of text fields for each of `rows` rows (a rank's name and slug, an office's
 * address…), kept end to end as UTF-8 in one buffer, outside the engine's heap; a field is
 * decoded when it is read (about 50 ns for a slug).
 *
 * Kept as strings of their own (280,000 of them for 100,000 brokers' list text), they were
 * allocated between the rows they came from, which are garbage at once: the live text was 26 MB,
 * but the pages it was scattered over held 58 MB after collection. Kept as strings of 256 rows
 * each, the collector's heap still grew with them: it lets the heap grow in proportion to what is
 * live in it, and 28 MB of detail columns as strings and arrays cost the server 60 MB of
 * anonymous memory at start. In one buffer they cost their size.
 *
 * Text comes from SQLite, which stores UTF-8, so it holds no lone surrogate and reads back exactly.
 *
 * Rows are written in increasing order, then seal(); a row never written reads as empty text.
 * A field may be null (a column without a value), which reads back as null.
 *
 * @example
 * const offices = new TextColumns(2, 2); // two rows of (address, phone)
 * offices.set(0, ["1 King St", null]);
 * offices.set(1, ["2 Rue Ste-Anne", "+15145550100"]);
 * offices.seal();
 * offices.text(1, 0); // "2 Rue Ste-Anne"
 * offices.text(0, 1); // null
 */
export class TextColumns {
  private buffer: DecodingBuffer;
  /**
   * Row r's field f starts at byte bounds[(fields + 1)r + f] and ends where the next field
   * starts; the row's last slot is where it ends. A row never set keeps zeros: empty text.
   */
  private bounds: Int32Array;
  /** One bit per field value: set when it is null. */
  private nulls: Uint8Array;
  /**
   * One bit per row: set when a field of the row is not ASCII. An ASCII row is decoded in one
   * go and cut by its byte offsets (see row), which are then its string offsets too. Kept on
   * the heap (a bit a row), not in the mapped file.
   */
  private readonly wide: Uint8Array;
  private written = 0;
  private nextRow = 0;

  /**
   * `expectedBytes`: the UTF-8 size of everything that will be written, when the caller can
   * tell (SQLite sums it in one pass): the buffer is then made once at that size. Growing it by
   * doubling instead made the index's load of 100,000 brokers pass through 60 MB of buffers for
   * 26 MB of text, pages the process then kept.
   */
  constructor(
    private readonly rows: number,
    private readonly fields: number,
    expectedBytes = INITIAL_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(Math.max(1, expectedBytes)) as DecodingBuffer;
    this.bounds = new Int32Array((fields + 1) * rows);
    this.nulls = new Uint8Array(Math.ceil((fields * rows) / 8));
    this.wide = new Uint8Array(Math.ceil(rows / 8));
  }

  /** A row's fields, in increasing row order (a row skipped reads as empty text). */
  set(row: number, texts: readonly (string | null)[]): void {
    if (row < this.nextRow || row >= this.rows) throw new Error(`text for row ${row} out of order (next is ${this.nextRow})`);
    let at = (this.fields + 1) * row;
    for (let field = 0; field < this.fields; field++) {
      const text = texts[field] ?? null;
      this.bounds[at++] = this.written;
      if (text === null) {
        const bit = this.fields * row + field;
        this.nulls[bit >>> 3]! |= 1 << (bit & 7);
        continue;
      }
      // At most three bytes a UTF-16 unit (a surrogate pair is four bytes for two units).
      if (this.written + 3 * text.length > this.buffer.length) this.grow(this.written + 3 * text.length);
      const bytes = this.buffer.write(text, this.written, "utf8");
      // As many bytes as UTF-16 units: every unit was one ASCII byte.
      if (bytes !== text.length) this.wide[row >>> 3]! |= 1 << (row & 7);
      this.written += bytes;
    }
    this.bounds[at] = this.written;
    this.nextRow = row + 1;
  }

  /**
   * Ends the writing: the buffer is cut to what was written; the rows never set read as empty
   * text. With a `directory`, the offsets, null bits and text move into one mapped file there
   * (see fileBacked), out of the process's anonymous memory.
   */
  seal(directory?: string): void {
    const text = this.buffer.subarray(0, this.written);
    // Offsets first: the mapping starts on a page, so the Int32Array view is aligned.
    const mapped = fileBacked([new Uint8Array(this.bounds.buffer, this.bounds.byteOffset, this.bounds.byteLength), this.nulls, text], directory);
    if (mapped && mapped.byteOffset % 4 === 0) {
      const base = mapped.byteOffset;
      this.bounds = new Int32Array(mapped.buffer, base, this.bounds.length);
      this.nulls = new Uint8Array(mapped.buffer, base + this.bounds.byteLength, this.nulls.length);
      this.buffer = Buffer.from(mapped.buffer, base + this.bounds.byteLength + this.nulls.byteLength, this.written) as DecodingBuffer;
      return;
    }
    if (this.written === this.buffer.length) return;
    const exact = Buffer.allocUnsafeSlow(this.written) as DecodingBuffer;
    this.buffer.copy(exact, 0, 0, this.written);
    this.buffer = exact;
  }

  /** One field of a row, or null. */
  text(row: number, field: number): string | null {
    const bit = this.fields * row + field;
    if ((this.nulls[bit >>> 3]! >>> (bit & 7)) & 1) return null;
    const at = (this.fields + 1) * row + field;
    const start = this.bounds[at]!;
    const end = this.bounds[at + 1]!;
    return start === end ? "" : this.buffer.utf8Slice(start, end);
  }

  /**
   * All the fields of a row, as text(row, field) gives each: an ASCII row with one decoding
   * of its bytes, cut into its fields (a call into the engine's decoder cost more than the
   * decoding of a short text: a list item's three fields took a fifth longer one by one).
   */
  row(row: number): (string | null)[] {
    const fields = new Array<string | null>(this.fields);
    if ((this.wide[row >>> 3]! >>> (row & 7)) & 1) {
      for (let field = 0; field < this.fields; field++) fields[field] = this.text(row, field);
      return fields;
    }
    const first = (this.fields + 1) * row;
    const start = this.bounds[first]!;
    const end = this.bounds[first + this.fields]!;
    const whole = start === end ? "" : this.buffer.utf8Slice(start, end);
    for (let field = 0; field < this.fields; field++) {
      const bit = this.fields * row + field;
      fields[field] = (this.nulls[bit >>> 3]! >>> (bit & 7)) & 1 ? null : whole.slice(this.bounds[first + field]! - start, this.bounds[first + field + 1]! - start);
    }
    return fields;
  }

  /**
   * Whether a row's field is exactly `text` (never for a null field). An ASCII text is compared
   * with the bytes in place, without decoding them; any other is decoded and compared.
   */
  equals(row: number, field: number, text: string): boolean {
    const bit = this.fields * row + field;
    if ((this.nulls[bit >>> 3]! >>> (bit & 7)) & 1) return false;
    const at = (this.fields + 1) * row + field;
    const start = this.bounds[at]!;
    const length = this.bounds[at + 1]! - start;
    const buffer = this.buffer;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) return this.text(row, field) === text;
      if (i >= length || buffer[start + i] !== unit) return false;
    }
    return length === text.length;
  }

  /** Approximate bytes held: the text and the bounds. */
  bytes(): number {
    return this.buffer.length + this.bounds.byteLength + this.nulls.byteLength + this.wide.byteLength;
  }

  private grow(atLeast: number): void {
    const larger = Buffer.allocUnsafeSlow(Math.max(atLeast, 2 * this.buffer.length)) as DecodingBuffer;
    this.buffer.copy(larger, 0, 0, this.written);
    this.buffer = larger;
  }
}
