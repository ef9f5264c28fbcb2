/** Rows whose text shares one string: 256 brokers' list text is about 50 KB, one allocation. */
const CHUNK_BITS = 8;
/** Any character a Latin-1 (8-bit) string cannot hold: such a chunk stays as it is, 2 bytes a character. */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * A fixed number of text fields for each of `rows` rows (a rank's name and slug, an office's
 * address…), kept end to end in one string per 256 rows; a field is read as a substring of it.
 *
 * Kept as strings of their own (280,000 of them for 100,000 brokers' list text), they were
 * allocated between the rows they came from, which are garbage at once: the live text was 26 MB,
 * but the pages it was scattered over held 58 MB after collection. A chunk is also made 8-bit
 * when all its characters fit (SQLite's strings with an accent are 16-bit, 2 bytes a character).
 * Taking a substring costs about 20 ns more than reading a string.
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
  private readonly chunks: string[] = [];
  /**
   * Row r's field f starts at bounds[(fields + 1)r + f] of its chunk and ends where the next
   * field starts; the row's last slot is where it ends. A row never set keeps zeros: empty text.
   */
  private readonly bounds: Int32Array;
  /** One bit per field value: set when it is null. */
  private readonly nulls: Uint8Array;
  /** The chunk being written: its pieces, their length so far, and the next row expected. */
  private pieces: string[] = [];
  private written = 0;
  private nextRow = 0;
  /** Where a chunk is made 8-bit (see latin1), reused from chunk to chunk. */
  private scratch = Buffer.alloc(0);

  constructor(
    private readonly rows: number,
    private readonly fields: number,
  ) {
    this.bounds = new Int32Array((fields + 1) * rows);
    this.nulls = new Uint8Array(Math.ceil((fields * rows) / 8));
  }

  /** A row's fields, in increasing row order (a row skipped reads as empty text). */
  set(row: number, texts: readonly (string | null)[]): void {
    if (row < this.nextRow || row >= this.rows) throw new Error(`text for row ${row} out of order (next is ${this.nextRow})`);
    this.openChunkOf(row);
    let at = (this.fields + 1) * row;
    for (let field = 0; field < this.fields; field++) {
      const text = texts[field] ?? null;
      this.bounds[at++] = this.written;
      if (text === null) {
        const bit = this.fields * row + field;
        this.nulls[bit >>> 3]! |= 1 << (bit & 7);
        continue;
      }
      this.written += text.length;
      this.pieces.push(text);
    }
    this.bounds[at] = this.written;
    this.nextRow = row + 1;
  }

  /** Ends the writing: the last chunk is made, the rows never set read as empty text. */
  seal(): void {
    if (this.rows > 0) this.openChunkOf(this.rows - 1);
    this.closeChunk();
    this.scratch = Buffer.alloc(0);
  }

  /** One field of a row: a substring of its chunk, or null. */
  text(row: number, field: number): string | null {
    const bit = this.fields * row + field;
    if ((this.nulls[bit >>> 3]! >>> (bit & 7)) & 1) return null;
    const at = (this.fields + 1) * row + field;
    return (this.chunks[row >>> CHUNK_BITS] ?? "").substring(this.bounds[at]!, this.bounds[at + 1]!);
  }

  /** Whether a row's field is exactly `text` (never for a null field), without making the substring. */
  equals(row: number, field: number, text: string): boolean {
    const bit = this.fields * row + field;
    if ((this.nulls[bit >>> 3]! >>> (bit & 7)) & 1) return false;
    const at = (this.fields + 1) * row + field;
    const start = this.bounds[at]!;
    return this.bounds[at + 1]! - start === text.length && (this.chunks[row >>> CHUNK_BITS] ?? "").startsWith(text, start);
  }

  /** Approximate bytes held: the chunks (1 or 2 bytes a character) and the bounds. */
  bytes(): number {
    let text = 0;
    for (const chunk of this.chunks) text += BEYOND_LATIN1.test(chunk) ? 2 * chunk.length : chunk.length;
    return text + this.bounds.byteLength + this.nulls.byteLength;
  }

  /** Closes chunks (empty ones too) until the open one is the one `row` belongs to. */
  private openChunkOf(row: number): void {
    while (this.chunks.length < row >>> CHUNK_BITS) this.closeChunk();
  }

  private closeChunk(): void {
    const text = this.pieces.join("");
    this.chunks.push(BEYOND_LATIN1.test(text) ? text : this.latin1(text));
    this.pieces = [];
    this.written = 0;
  }

  /** The same text as an 8-bit string (every character is below 256), through one reused buffer. */
  private latin1(text: string): string {
    if (this.scratch.length < text.length) this.scratch = Buffer.allocUnsafe(2 * text.length);
    this.scratch.write(text, 0, "latin1");
    return this.scratch.toString("latin1", 0, text.length);
  }
}
