import type { Database } from "bun:sqlite";
import type { RefRow } from "../search/brokerAttributes.ts";
import type { DetailRow, LocationRow } from "../search/detailRow.ts";
import { ReadSnapshot } from "../sqlite/readSnapshot.ts";

export type { DetailOffice, DetailRow, LocationRow } from "../search/detailRow.ts";

type RawDetail = Omit<DetailRow, "isVerified" | "insuranceLines" | "specialties" | "languages"> & {
  isVerified: number;
  insuranceLines: string;
  specialties: string;
  languages: string;
};
type RawLocation = Omit<LocationRow, "isPrimary"> & { isPrimary: number };

/**
 * The reads behind a broker's detail and a lookup by id, as plain prepared statements whose
 * columns come back already named: on a cache miss (most requests when traffic is spread over
 * 100,000 brokers) drizzle's row mapping cost more than the queries. The values are exactly
 * what drizzle's column modes make of them: JSON columns parsed, booleans `=== 1`.
 */
export class BrokerLookups {
  private readonly detailBySlug;
  private readonly locations;
  private readonly refById;
  private readonly snapshot;

  constructor(client: Database) {
    this.snapshot = new ReadSnapshot(client);
    this.detailBySlug = client.prepare<RawDetail, [string]>(
      `SELECT id, name, slug, description, province, city, average_rating AS averageRating, review_count AS reviewCount,
              is_verified AS isVerified, email, phone, website, founding_year AS foundingYear, team_size AS teamSize,
              license_number AS licenseNumber, rating_1 AS rating1, rating_2 AS rating2, rating_3 AS rating3,
              rating_4 AS rating4, rating_5 AS rating5, insurance_lines AS insuranceLines, specialties, languages,
              created_at AS createdAt, updated_at AS updatedAt
         FROM brokers WHERE slug = ? AND published = 1`,
    );
    this.locations = client.prepare<RawLocation, [number]>(
      `SELECT id, broker_id AS brokerId, address, city, city_key AS cityKey, province, postal_code AS postalCode, phone,
              latitude, longitude, is_primary AS isPrimary
         FROM broker_locations WHERE broker_id = ? ORDER BY is_primary DESC, id ASC`,
    );
    this.refById = client.prepare<RefRow, [number]>(
      `SELECT id, slug, name, review_count AS reviewCount, rating_1 AS r1, rating_2 AS r2, rating_3 AS r3, rating_4 AS r4, rating_5 AS r5
         FROM brokers WHERE id = ? AND published = 1`,
    );
  }

  /** The published broker with this slug and its offices (primary first), or undefined; both from one snapshot. */
  detail(slug: string): { row: DetailRow; locations: LocationRow[] } | undefined {
    const read = this.snapshot.run(() => {
      const raw = this.detailBySlug.get(slug);
      return raw && { raw, locations: this.locations.all(raw.id) };
    });
    if (!read) return undefined;
    const { raw } = read;
    const row: DetailRow = {
      ...raw,
      isVerified: raw.isVerified === 1,
      insuranceLines: JSON.parse(raw.insuranceLines) as string[],
      specialties: JSON.parse(raw.specialties) as string[],
      languages: JSON.parse(raw.languages) as string[],
    };
    const locations = read.locations.map((l): LocationRow => ({ ...l, isPrimary: l.isPrimary === 1 }));
    return { row, locations };
  }

  ref(id: number): RefRow | undefined {
    return this.refById.get(id) ?? undefined;
  }
}
