import { closeSync, readSync } from "node:fs";
import { FileBackedWriter } from "./fileBackedWriter.ts";

/**
 * Every published broker's detail as the JSON text its answer is made of, rendered once per
 * load of the index's attributes into a file of its own (see FileBackedWriter): a detail asked
 * for is then read from that file, with no object built and no JSON written per request.
 *
 * Why (issue 30): a detail spread over 20,000 of 100,000 brokers missed every cache and cost
 * about 2.5 times a cached one, building the answer's objects and writing its JSON for each
 * request (with the garbage both leave); with every answer at hand, the same walk ran at the
 * speed of cached answers (the manual's performance page). The text (about 100 MB at 100,000
 * brokers) is read with one `pread` per answer, not mapped: it stays page cache the kernel may
 * drop, outside the process, and JavaScriptCore does not count it as heap (a mapping is an
 * ArrayBuffer it counts, and a larger heap lets more garbage pile up before a collection). A
 * directory in memory (no file to write) renders nothing.
 *
 * Built a slice at a time (`renderSome`) off the requests' path, in rank order; nothing is
 * answered from it before the last rank is written. A broker whose ratings change afterwards
 * (reviews are applied to the index in place) is forgotten here: its detail is built as before
 * until the next load renders it again. `close` lets the file go (the index calls it when it
 * loads anew).
 */
export class RenderedDetails {
  private next = 0;
  /** Where rank r's text starts in the file; r + 1's start is its end. */
  private readonly starts: Float64Array;
  /** 1 for a rank whose text no longer says what the index says (its ratings changed). */
  private readonly stale: Uint8Array;
  private writer: FileBackedWriter | undefined;
  /** The finished file, open for reading (unlinked). */
  private fd: number | undefined;

  private constructor(
    /** What the texts were rendered from: they hold while the index keeps this object. */
    readonly source: object,
    private readonly ranks: number,
    writer: FileBackedWriter,
  ) {
    this.starts = new Float64Array(ranks + 1);
    this.stale = new Uint8Array(ranks);
    this.writer = writer;
  }

  /** A rendering of `ranks` details into a new file in `directory`, or undefined when no file can be made there. */
  static start(source: object, ranks: number, directory: string | undefined): RenderedDetails | undefined {
    const writer = FileBackedWriter.open(directory);
    return writer && new RenderedDetails(source, ranks, writer);
  }

  /** Whether every rank is rendered (or the rendering failed, or was closed, and nothing will be). */
  get finished(): boolean {
    return this.writer === undefined;
  }

  /**
   * Renders up to `count` more ranks with `render` (a rank's JSON text; undefined leaves the rank
   * out, answered as before); opens the file for reading after the last. Answers whether ranks are left.
   */
  renderSome(count: number, render: (rank: number) => string | undefined): boolean {
    const writer = this.writer;
    if (!writer) return false;
    const end = Math.min(this.ranks, this.next + count);
    for (let rank = this.next; rank < end; rank++) {
      const text = render(rank);
      if (text === undefined) this.stale[rank] = 1;
      this.starts[rank] = text === undefined ? writer.length : writer.writeText(text);
    }
    this.next = end;
    if (end < this.ranks) return true;
    this.starts[this.ranks] = writer.length;
    this.writer = undefined;
    this.fd = writer.finishOpen();
    return false;
  }

  /** Rank `rank`'s JSON text as UTF-8, read into a buffer of its own, or undefined: not rendered, stale, or unreadable. */
  text(rank: number): Uint8Array<ArrayBuffer> | undefined {
    const fd = this.fd;
    if (fd === undefined || this.stale[rank] === 1) return undefined;
    const start = this.starts[rank]!;
    const text = new Uint8Array(this.starts[rank + 1]! - start);
    try {
      return readSync(fd, text, 0, text.byteLength, start) === text.byteLength ? text : undefined;
    } catch {
      return undefined;
    }
  }

  /** The index's facts about this rank changed: its text (if rendered yet) no longer holds. */
  forget(rank: number): void {
    if (rank < this.next) this.stale[rank] = 1;
  }

  /** Lets the file go: a rendering under way stops, a finished one answers no more. */
  close(): void {
    this.writer?.abandon();
    this.writer = undefined;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Already closed: nothing holds it any more either way.
      }
      this.fd = undefined;
    }
  }
}
