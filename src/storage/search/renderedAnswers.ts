import { FileBackedWriter } from "./fileBackedWriter.ts";
import { listItemTail } from "./listItemJson.ts";
import { RankTexts } from "./rankTexts.ts";

/** The largest file of rendered details (about 1 KB a broker: 96 MB at 100,000). */
const MAX_DETAIL_BYTES = 1024 * 1024 * 1024;
/** The largest file of first review pages (up to about 4 KB a broker: 400 MB at 100,000 if every broker's is asked). */
const MAX_REVIEW_PAGE_BYTES = 512 * 1024 * 1024;

/** The ratings and mark of each rank, as the index holds them (kept current by reviews, in place). */
export interface ItemRatings {
  readonly averageRating: ArrayLike<number>;
  readonly reviewCount: ArrayLike<number>;
  readonly verified: ArrayLike<number>;
}

/**
 * The answers the index keeps rendered as JSON text for one load of the directory, by rank (see
 * RankTexts for where they are kept):
 *
 * - every published broker's **detail**, rendered a slice at a time (`renderDetails`) off the
 *   requests' path, in rank order; a rank's is answered as soon as it is written;
 * - every published broker's **list item** up to its ratings (listItemHead), rendered in the same
 *   slices into a file of their own, which is mapped once the last is written: a page of search
 *   results is then their bytes copied end to end with each item's ratings written after its
 *   head (`listItems`), about 30 MB of page cache at 100,000 brokers and no anonymous memory.
 *   Until the file is mapped, no page is answered from here;
 * - the **first page of a broker's reviews** (the default page: page 1, 20 newest first, every
 *   rating), kept as it is first answered (`keepReviewPage`) and only for the directory version
 *   it was read at, like REST's response cache: any write to the directory starts them afresh
 *   (a review's text may change without its broker's ratings). Reading them all ahead of time
 *   would take 1.2 million reviews and seconds of CPU at 100,000 brokers on every load.
 *
 * Why (issue 30): a detail or review page spread over 20,000 of 100,000 brokers missed every
 * cache and cost 2.5 (detail) to 4 (reviews) times a cached one, building the answer's objects
 * and writing its JSON for each request (and, for reviews, reading SQLite), with the garbage
 * that leaves. A broker whose ratings change (reviews are applied to the index in place) has
 * its detail rendered again at once.
 * A directory in memory (no file to write) keeps nothing: every answer is built as before.
 */
export class RenderedAnswers {
  private nextDetail = 0;
  /** The list items' heads while they are written, in rank order; then their mapping, and where each rank's starts (rank r's ends where r + 1's starts). */
  private itemWriter: FileBackedWriter | undefined;
  private itemHeads: Buffer | undefined;
  private readonly itemStarts: Float64Array;
  private reviewPages: RankTexts | undefined;
  /** The directory version the review pages kept were read at. */
  private reviewPagesVersion = -1;

  private constructor(
    /** What the answers were rendered from: they hold while the index keeps this object. */
    readonly source: object,
    private readonly ranks: number,
    private readonly details: RankTexts,
    private readonly directory: string,
  ) {
    this.itemStarts = new Float64Array(ranks + 1);
    this.itemWriter = FileBackedWriter.open(directory);
  }

  /** Answers for `ranks` ranks in files in `directory`, or undefined when no file can be made there. */
  static open(source: object, ranks: number, directory: string | undefined): RenderedAnswers | undefined {
    const details = RankTexts.open(ranks, directory, MAX_DETAIL_BYTES);
    return details && new RenderedAnswers(source, ranks, details, directory!);
  }

  /** Whether every rank's list item is rendered and mapped (listItems answers). */
  get itemsDone(): boolean {
    return this.itemHeads !== undefined;
  }

  /** Whether every rank's detail has been rendered (or tried: a rank left out is answered as before). */
  get detailsDone(): boolean {
    return this.nextDetail >= this.ranks;
  }

  /**
   * Renders up to `count` more details with `render` (a rank's JSON text; undefined leaves the
   * rank out) and as many list items' heads with `renderItemHead`. Answers whether ranks are left.
   */
  renderDetails(count: number, render: (rank: number) => string | undefined, renderItemHead: (rank: number) => string): boolean {
    const end = Math.min(this.ranks, this.nextDetail + count);
    const items = this.itemWriter;
    for (let rank = this.nextDetail; rank < end; rank++) {
      this.renderDetail(rank, render);
      if (items !== undefined) this.itemStarts[rank] = items.writeText(renderItemHead(rank));
    }
    this.nextDetail = end;
    if (end === this.ranks && items !== undefined) {
      this.itemStarts[end] = items.length;
      this.itemWriter = undefined;
      // A failed write (a full disk) maps nothing: pages are then built as before.
      this.itemHeads = items.finish();
    }
    return end < this.ranks;
  }

  /**
   * The JSON of the list items of `page` (ranks), in order, between `open` and `close`: each
   * item's head as rendered, then its tail from `ratings` (`open` and `close` are ASCII). Undefined until every head is mapped.
   */
  listItems(page: Int32Array, ratings: ItemRatings, open: string, close: string): Uint8Array<ArrayBuffer> | undefined {
    const heads = this.itemHeads;
    if (heads === undefined) return undefined;
    const starts = this.itemStarts;
    const tails = new Array<string>(page.length);
    // open, "[", the items and their commas, "]", close: all but the heads are ASCII.
    let length = open.length + close.length + 2 + Math.max(0, page.length - 1);
    for (let i = 0; i < page.length; i++) {
      const rank = page[i]!;
      tails[i] = listItemTail(ratings.averageRating[rank]!, ratings.reviewCount[rank]!, ratings.verified[rank] === 1);
      length += starts[rank + 1]! - starts[rank]! + tails[i]!.length;
    }
    // A plain Uint8Array: a Buffer's `.buffer`, which a view over it needs, cost a tenth of this function.
    const out = new Uint8Array(length);
    let at = writeAscii(out, 0, open);
    out[at++] = 0x5b; // [
    for (let i = 0; i < page.length; i++) {
      if (i > 0) out[at++] = 0x2c; // ,
      const rank = page[i]!;
      at += heads.copy(out, at, starts[rank]!, starts[rank + 1]!);
      at = writeAscii(out, at, tails[i]!);
    }
    out[at++] = 0x5d; // ]
    writeAscii(out, at, close);
    return out;
  }

  detail(rank: number): Uint8Array<ArrayBuffer> | undefined {
    return this.details.get(rank);
  }

  /** This rank's first review page as kept from the directory at `version`. */
  reviewPage(rank: number, version: number): Uint8Array<ArrayBuffer> | undefined {
    return version === this.reviewPagesVersion ? this.reviewPages?.get(rank) : undefined;
  }

  /** Keeps `text`, read from the directory at `version`, as this rank's first review page (those of other versions go). */
  keepReviewPage(rank: number, version: number, text: string): void {
    if (version !== this.reviewPagesVersion) {
      this.reviewPages?.close();
      this.reviewPages = RankTexts.open(this.ranks, this.directory, MAX_REVIEW_PAGE_BYTES);
      this.reviewPagesVersion = version;
    }
    if (this.reviewPages?.has(rank) === false) this.reviewPages.put(rank, text);
  }

  /** This rank's ratings changed (applied in place): its detail is rendered again, if it was. */
  ratingsChanged(rank: number, render: (rank: number) => string | undefined): void {
    if (rank < this.nextDetail) this.renderDetail(rank, render);
  }

  /** Lets the files go. */
  close(): void {
    this.details.close();
    this.itemWriter?.abandon();
    this.itemWriter = undefined;
    this.itemHeads = undefined;
    this.reviewPages?.close();
    this.reviewPages = undefined;
    this.nextDetail = this.ranks;
  }

  private renderDetail(rank: number, render: (rank: number) => string | undefined): void {
    const text = render(rank);
    if (text === undefined) this.details.forget(rank);
    else this.details.put(rank, text);
  }
}

/** Writes ASCII `text` into `out` at `at`; answers where it ends. A loop: for the few dozen characters of a tail, cheaper than a call into the encoder. */
function writeAscii(out: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  return at;
}
