import { RankTexts } from "./rankTexts.ts";

/** The largest file of rendered details (about 1 KB a broker: 96 MB at 100,000). */
const MAX_DETAIL_BYTES = 1024 * 1024 * 1024;
/** The largest file of first review pages (up to about 4 KB a broker: 400 MB at 100,000 if every broker's is asked). */
const MAX_REVIEW_PAGE_BYTES = 512 * 1024 * 1024;

/**
 * The answers the index keeps rendered as JSON text for one load of the directory, by rank (see
 * RankTexts for where they are kept):
 *
 * - every published broker's **detail**, rendered a slice at a time (`renderDetails`) off the
 *   requests' path, in rank order; a rank's is answered as soon as it is written;
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
  private reviewPages: RankTexts | undefined;
  /** The directory version the review pages kept were read at. */
  private reviewPagesVersion = -1;

  private constructor(
    /** What the answers were rendered from: they hold while the index keeps this object. */
    readonly source: object,
    private readonly ranks: number,
    private readonly details: RankTexts,
    private readonly directory: string,
  ) {}

  /** Answers for `ranks` ranks in files in `directory`, or undefined when no file can be made there. */
  static open(source: object, ranks: number, directory: string | undefined): RenderedAnswers | undefined {
    const details = RankTexts.open(ranks, directory, MAX_DETAIL_BYTES);
    return details && new RenderedAnswers(source, ranks, details, directory!);
  }

  /** Whether every rank's detail has been rendered (or tried: a rank left out is answered as before). */
  get detailsDone(): boolean {
    return this.nextDetail >= this.ranks;
  }

  /**
   * Renders up to `count` more details with `render` (a rank's JSON text; undefined leaves the
   * rank out). Answers whether ranks are left.
   */
  renderDetails(count: number, render: (rank: number) => string | undefined): boolean {
    const end = Math.min(this.ranks, this.nextDetail + count);
    for (let rank = this.nextDetail; rank < end; rank++) this.renderDetail(rank, render);
    this.nextDetail = end;
    return end < this.ranks;
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
