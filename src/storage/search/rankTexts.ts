import { FileBackedWriter } from "./fileBackedWriter.ts";

/**
 * A text per published broker (by its rank in the index), appended to a file of its own and
 * read back with one `pread` each: the answers the index keeps rendered for one load of the
 * directory (see RenderedAnswers). The file is unlinked at once and kept open: page cache the
 * kernel may drop, outside the process; not mapped, since JavaScriptCore counts a mapping as
 * heap, and a larger heap lets more garbage pile up before a collection (a 200 MB mapping raised
 * its extra memory by 200 MB; RssAnon after the bench 309 MB mapped against 284 MB read).
 *
 * Bounded: a rank holds one text at a time (a second `put` appends the new one and leaves the
 * old bytes unread), and nothing more is appended once the file reaches `maxBytes`. Keys are
 * ranks, not anything a client sends.
 *
 * @example
 * const texts = RankTexts.open(100_000, directory, 1 << 30);
 * texts?.put(42, '{"id":"42"}');
 * texts?.get(42); // its UTF-8 bytes, in a buffer of their own
 */
export class RankTexts {
  /** Where rank r's text starts in the file, or -1 when it has none. */
  private readonly starts: Float64Array;
  private readonly lengths: Int32Array;

  private constructor(
    ranks: number,
    private writer: FileBackedWriter | undefined,
    private readonly maxBytes: number,
  ) {
    this.starts = new Float64Array(ranks).fill(-1);
    this.lengths = new Int32Array(ranks);
  }

  /** Texts for `ranks` ranks in a new file in `directory`, or undefined when no file can be made there. */
  static open(ranks: number, directory: string | undefined, maxBytes: number): RankTexts | undefined {
    const writer = FileBackedWriter.open(directory);
    writer?.unlink();
    return writer && new RankTexts(ranks, writer, maxBytes);
  }

  has(rank: number): boolean {
    return this.starts[rank]! >= 0;
  }

  /** Keeps `text` as rank `rank`'s; false when it cannot (the file is full, failed or closed). */
  put(rank: number, text: string): boolean {
    const writer = this.writer;
    this.starts[rank] = -1;
    if (writer === undefined || writer.length >= this.maxBytes) return false;
    const start = writer.writeText(text);
    if (!writer.intact) return false;
    this.starts[rank] = start;
    this.lengths[rank] = writer.length - start;
    return true;
  }

  /** Rank `rank`'s text as UTF-8, in a buffer of its own; undefined when it has none (or it cannot be read). */
  get(rank: number): Uint8Array<ArrayBuffer> | undefined {
    const start = this.starts[rank]!;
    if (start < 0 || this.writer === undefined) return undefined;
    const text = new Uint8Array(this.lengths[rank]!);
    return this.writer.read(text, start) ? text : undefined;
  }

  /** Rank `rank` has no text any more (what it said changed). */
  forget(rank: number): void {
    this.starts[rank] = -1;
  }

  /** Lets the file go: nothing more is kept or answered. */
  close(): void {
    this.writer?.abandon();
    this.writer = undefined;
  }
}
