import type { ProvinceCode } from "../domain/provinces.ts";
import type { BrokerListItem } from "../schemas/broker.ts";

/**
 * The text a list item shows (name, slug, description, and the primary office's province and
 * city as the brokers row has them), by rank, held beside the search attributes so a page of
 * results is built without a query. Provinces and cities repeat: each distinct text is kept once.
 */
export class ListColumns {
  private readonly names: string[];
  private readonly slugs: string[];
  private readonly descriptions: string[];
  private readonly provinces: string[];
  private readonly cities: string[];
  private readonly places = new Map<string, string>();

  constructor(n: number) {
    this.names = new Array<string>(n).fill("");
    this.slugs = new Array<string>(n).fill("");
    this.descriptions = new Array<string>(n).fill("");
    this.provinces = new Array<string>(n).fill("");
    this.cities = new Array<string>(n).fill("");
  }

  set(rank: number, name: string, slug: string, description: string, province: string, city: string): void {
    this.names[rank] = name;
    this.slugs[rank] = slug;
    this.descriptions[rank] = description;
    this.provinces[rank] = this.shared(province);
    this.cities[rank] = this.shared(city);
  }

  /** The list item of a rank, with the ratings and mark the attributes hold (kept current by review deltas). */
  item(rank: number, id: number, averageRating: number, reviewCount: number, verified: boolean): BrokerListItem {
    return {
      id: String(id),
      name: this.names[rank]!,
      slug: this.slugs[rank]!,
      description: this.descriptions[rank]!,
      province: this.provinces[rank] as ProvinceCode,
      city: this.cities[rank]!,
      averageRating,
      reviewCount,
      isVerified: verified,
    };
  }

  nameAndSlug(rank: number): { name: string; slug: string } {
    return { name: this.names[rank]!, slug: this.slugs[rank]! };
  }

  private shared(text: string): string {
    const kept = this.places.get(text);
    if (kept !== undefined) return kept;
    this.places.set(text, text);
    return text;
  }
}
