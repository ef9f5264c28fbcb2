import type { ProvinceCode } from "../../domain/provinces.ts";
import type { BrokerListItem } from "../../schemas/broker.ts";

/** Ranks whose text shares one string: 256 brokers' text is about 50 KB, one allocation. */
const CHUNK_BITS = 8;
/** A rank's fields, in the order they are kept in its chunk (see ListColumns.bounds). */
const NAME = 0;
const SLUG = 1;
const DESCRIPTION = 2;
/** Any character a Latin-1 (8-bit) string cannot hold: such a chunk stays as it is, 2 bytes a character. */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * The text a list item shows (name, slug, description, and the primary office's province and
 * city as the brokers row has them), by rank, held beside the search attributes so a page of
 * results is built without a query. Provinces and cities repeat: each distinct text is kept once.
 *
 * Names, slugs and descriptions are kept end to end in one string per 256 ranks, and a list
 * item takes substrings of it. Kept as 280,000 strings of their own (100,000 brokers), they were
 * allocated between the rows they came from, which are garbage at once: the live text was 26 MB,
 * but the pages it was scattered over held 58 MB after collection. A chunk is also made 8-bit
 * when all its characters fit (SQLite's strings with an accent are 16-bit, 2 bytes a character).
 * Taking the three substrings costs a list item about 60 ns more than reading three strings.
 *
 * @example
 * const list = new ListColumns(2);
 * list.set(0, "Acme", "acme", "Home and auto", "ON", "Toronto"); // ranks in increasing order
 * list.set(1, "Bolt", "bolt", "Farm", "QC", "Montréal");
 * list.seal();
 * list.nameAndSlug(1); // { name: "Bolt", slug: "bolt" }
 */
export class ListColumns {
  private readonly chunks: string[] = [];
  /**
   * Rank r's name starts at bounds[4r] of its chunk, its slug at 4r + 1, its description at
   * 4r + 2, and it ends at 4r + 3. A rank never set keeps all four at 0: empty text.
   */
  private readonly bounds: Int32Array;
  private readonly provinces: string[];
  private readonly cities: string[];
  private readonly places = new Map<string, string>();
  /** The chunk being written: its pieces, their length so far, and the next rank expected. */
  private pieces: string[] = [];
  private written = 0;
  private nextRank = 0;
  /** Where a chunk is made 8-bit (see latin1), reused from chunk to chunk. */
  private scratch = Buffer.alloc(0);

  constructor(private readonly n: number) {
    this.bounds = new Int32Array(4 * n);
    this.provinces = new Array<string>(n).fill("");
    this.cities = new Array<string>(n).fill("");
  }

  /** A rank's text; ranks come in increasing order (a rank skipped shows empty text), then seal(). */
  set(rank: number, name: string, slug: string, description: string, province: string, city: string): void {
    if (rank < this.nextRank || rank >= this.n) throw new Error(`list text for rank ${rank} out of order (next is ${this.nextRank})`);
    this.openChunkOf(rank);
    const at = 4 * rank;
    this.bounds[at] = this.written;
    this.bounds[at + 1] = this.written += name.length;
    this.bounds[at + 2] = this.written += slug.length;
    this.bounds[at + 3] = this.written += description.length;
    this.pieces.push(name, slug, description);
    this.provinces[rank] = this.shared(province);
    this.cities[rank] = this.shared(city);
    this.nextRank = rank + 1;
  }

  /** Ends the writing: the last chunk is made, the ranks never set show empty text. */
  seal(): void {
    if (this.n > 0) this.openChunkOf(this.n - 1);
    this.closeChunk();
    this.scratch = Buffer.alloc(0);
  }

  /** The list item of a rank, with the ratings and mark the attributes hold (kept current by review deltas). */
  item(rank: number, id: number, averageRating: number, reviewCount: number, verified: boolean): BrokerListItem {
    return {
      id: String(id),
      name: this.text(rank, NAME),
      slug: this.text(rank, SLUG),
      description: this.text(rank, DESCRIPTION),
      province: this.provinces[rank] as ProvinceCode,
      city: this.cities[rank]!,
      averageRating,
      reviewCount,
      isVerified: verified,
    };
  }

  nameAndSlug(rank: number): { name: string; slug: string } {
    return { name: this.text(rank, NAME), slug: this.text(rank, SLUG) };
  }

  /** One of a rank's three texts: a substring of its chunk, between that field's bound and the next. */
  private text(rank: number, field: typeof NAME | typeof SLUG | typeof DESCRIPTION): string {
    const at = 4 * rank + field;
    return (this.chunks[rank >>> CHUNK_BITS] ?? "").substring(this.bounds[at]!, this.bounds[at + 1]!);
  }

  /** Closes chunks (empty ones too) until the open one is the one `rank` belongs to. */
  private openChunkOf(rank: number): void {
    while (this.chunks.length < rank >>> CHUNK_BITS) this.closeChunk();
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

  private shared(text: string): string {
    const kept = this.places.get(text);
    if (kept !== undefined) return kept;
    this.places.set(text, text);
    return text;
  }
}
