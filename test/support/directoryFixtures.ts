import { brokerLines, brokerLocations, brokers, reviews } from "../../db/schema.ts";
import type { DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { foldText } from "../../src/domain/text.ts";

export interface FixtureBroker {
  name: string;
  slug: string;
  description?: string;
  province: string;
  city: string;
  published?: boolean;
  isVerified?: boolean;
  insuranceLines?: string[];
  languages?: string[];
  specialties?: string[];
  /** The primary office's coordinates. */
  latLng?: [number, number];
  /** Extra offices besides the primary one. */
  otherOffices?: { province: string; city: string; latLng?: [number, number] }[];
}

let nextId = 900_000;

/** Inserts a hand-made broker, for tests that need exact names, places or states. */
export function insertBroker(db: DirectoryDb, fixture: FixtureBroker): number {
  const id = nextId++;
  const now = Date.UTC(2025, 0, 1);
  const lines = fixture.insuranceLines ?? ["Auto", "Home"];
  db.insert(brokers)
    .values({
      id,
      slug: fixture.slug,
      name: fixture.name,
      sortName: foldText(fixture.name),
      description: fixture.description ?? `${fixture.name} serves ${fixture.city}.`,
      province: fixture.province,
      city: fixture.city,
      phone: "+16135550100",
      email: `info@${fixture.slug}.ca`,
      website: `https://${fixture.slug}.ca`,
      licenseNumber: `${fixture.province}-123456`,
      foundingYear: 2001,
      teamSize: "11-50",
      isVerified: fixture.isVerified ?? true,
      insuranceLines: lines,
      specialties: fixture.specialties ?? [],
      languages: fixture.languages ?? ["English"],
      published: fixture.published ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const offices = [
    { province: fixture.province, city: fixture.city, latLng: fixture.latLng, primary: true },
    ...(fixture.otherOffices ?? []).map((o) => ({ ...o, primary: false })),
  ];
  for (const office of offices) {
    db.insert(brokerLocations)
      .values({
        brokerId: id,
        address: "1 Test Street",
        city: office.city,
        cityKey: foldText(office.city),
        province: office.province,
        postalCode: "K1A 0A1",
        latitude: office.latLng?.[0] ?? null,
        longitude: office.latLng?.[1] ?? null,
        isPrimary: office.primary,
      })
      .run();
  }
  for (const line of lines) db.insert(brokerLines).values({ brokerId: id, lineKey: foldText(line) }).run();
  return id;
}

export function insertReview(
  db: DirectoryDb,
  review: { brokerId: number; rating: number; authorName?: string; body?: string; published?: boolean; createdAt?: number },
): number {
  // Reviews are keyed by broker (WITHOUT ROWID): the writer numbers them, as the seed does.
  const id = db.$client.query<{ next: number }, []>("SELECT coalesce(max(id), 0) + 1 AS next FROM reviews").get()!.next;
  const row = db
    .insert(reviews)
    .values({
      id,
      brokerId: review.brokerId,
      authorName: review.authorName ?? "Test Reviewer",
      rating: review.rating,
      title: "Test",
      body: review.body ?? "Fine.",
      published: review.published ?? true,
      createdAt: review.createdAt ?? Date.UTC(2025, 5, 1, 12, 0, 0, 120),
    })
    .returning({ id: reviews.id })
    .get();
  return row.id;
}
