import type { ProvinceCode } from "../../domain/provinces.ts";
import type { BrokerListItem } from "../../schemas/broker.ts";
import { TextColumns } from "./textColumns.ts";

/** A rank's text fields, in the order they are kept (see TextColumns). */
const NAME = 0;
const SLUG = 1;
const DESCRIPTION = 2;

/**
 * The text a list item shows (name, slug, description, and the primary office's province and
 * city as the brokers row has them), by rank, held beside the search attributes so a page of
 * results is built without a query. Provinces and cities repeat: each distinct text is kept once.
 *
 * Names, slugs and descriptions are kept end to end as UTF-8 in one buffer (TextColumns), and a
 * list item decodes its three: about 100 ns more than reading three strings, against 58 MB of
 * scattered heap pages for 280,000 strings of their own (100,000 brokers).
 *
 * @example
 * const list = new ListColumns(2);
 * list.set(1, "Bolt", "bolt", "Farm", "QC", "Montréal"); // ranks in any order, each once
 * list.set(0, "Acme", "acme", "Home and auto", "ON", "Toronto");
 * list.seal();
 * list.nameAndSlug(1); // { name: "Bolt", slug: "bolt" }
 */
export class ListColumns {
  private readonly texts: TextColumns;
  /** Where each rank's text is: the order it was set in (row n, never written, is empty text). */
  private readonly rowOfRank: Int32Array;
  private nextRow = 0;
  private readonly provinces: string[];
  private readonly cities: string[];
  private readonly places = new Map<string, string>();

  /** `expectedBytes`: the UTF-8 size of the names, slugs and descriptions to come, if known (see TextColumns). */
  constructor(
    private readonly n: number,
    expectedBytes?: number,
  ) {
    this.texts = new TextColumns(n + 1, 3, expectedBytes);
    this.rowOfRank = new Int32Array(n).fill(n);
    this.provinces = new Array<string>(n).fill("");
    this.cities = new Array<string>(n).fill("");
  }

  /**
   * A rank's text, once per rank, in any order of ranks (the index reads brokers in id order,
   * one row at a time), then seal(); a rank never set shows empty text.
   */
  set(rank: number, name: string, slug: string, description: string, province: string, city: string): void {
    if (!(rank >= 0 && rank < this.n) || this.rowOfRank[rank] !== this.n) throw new Error(`list text for rank ${rank} set twice or out of range`);
    const row = this.nextRow++;
    this.texts.set(row, [name, slug, description]);
    this.rowOfRank[rank] = row;
    this.provinces[rank] = this.shared(province);
    this.cities[rank] = this.shared(city);
  }

  /** Ends the writing: the ranks never set show empty text (`directory`: see TextColumns.seal). */
  seal(directory?: string): void {
    this.texts.seal(directory);
  }

  /** The list item of a rank, with the ratings and mark the attributes hold (kept current by review deltas). */
  item(rank: number, id: number, averageRating: number, reviewCount: number, verified: boolean): BrokerListItem {
    const texts = this.texts.row(this.rowOfRank[rank]!) as string[];
    return {
      id: String(id),
      name: texts[NAME]!,
      slug: texts[SLUG]!,
      description: texts[DESCRIPTION]!,
      province: this.provinces[rank] as ProvinceCode,
      city: this.cities[rank]!,
      averageRating,
      reviewCount,
      isVerified: verified,
    };
  }

  slug(rank: number): string {
    return this.text(rank, SLUG);
  }

  nameAndSlug(rank: number): { name: string; slug: string } {
    return { name: this.text(rank, NAME), slug: this.text(rank, SLUG) };
  }

  /** Whether a rank's slug is exactly `slug` (see SlugTable), without making the substring. */
  hasSlug(rank: number, slug: string): boolean {
    return this.texts.equals(this.rowOfRank[rank]!, SLUG, slug);
  }

  /** One of a rank's three texts (never null: they are all written as strings). */
  private text(rank: number, field: typeof NAME | typeof SLUG | typeof DESCRIPTION): string {
    return this.texts.text(this.rowOfRank[rank]!, field)!;
  }

  private shared(text: string): string {
    const kept = this.places.get(text);
    if (kept !== undefined) return kept;
    this.places.set(text, text);
    return text;
  }
}
