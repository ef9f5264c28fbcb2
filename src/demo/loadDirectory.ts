import { sql } from "drizzle-orm";
import { brokerLines, brokerLocations, brokers, reviews } from "../../db/schema.ts";
import type { DirectoryDb } from "../storage/sqlite/database.ts";
import { foldText } from "../domain/text.ts";
import { generateDirectory, type DirectoryOptions } from "./generateDirectory.ts";

export interface LoadSummary {
  brokers: number;
  publishedBrokers: number;
  locations: number;
  reviews: number;
}

const PROGRESS_EVERY = 2_000;

/**
 * Replaces the directory (brokers, locations, lines, reviews) with a generated one.
 * Keys and workspaces are left alone. One transaction (atomic for readers); brokers are
 * generated one at a time, so memory stays flat at 100,000 brokers.
 */
export function loadDirectory(
  db: DirectoryDb,
  options: DirectoryOptions,
  onProgress: (done: number, total: number) => void = () => {},
): LoadSummary {
  const summary: LoadSummary = { brokers: 0, publishedBrokers: 0, locations: 0, reviews: 0 };

  const insertBroker = db.insert(brokers).values(placeholders(brokers, BROKER_COLUMNS)).prepare();
  const insertLocation = db.insert(brokerLocations).values(placeholders(brokerLocations, LOCATION_COLUMNS)).prepare();
  const insertLine = db
    .insert(brokerLines)
    .values({ brokerId: sql.placeholder("brokerId"), lineKey: sql.placeholder("lineKey") })
    .prepare();
  const insertReview = db.insert(reviews).values(placeholders(reviews, REVIEW_COLUMNS)).prepare();

  // One transaction, deletes included: readers (a live server) see the old directory until
  // the commit and the new one after it, never an empty or half-loaded one. WAL keeps the
  // readers going meanwhile; writers wait (busy_timeout) for the commit.
  // A cache big enough for the whole new directory: one transaction that spills dirty pages
  // to the log half-way (the default 64 MB cache) took twice as long at 20,000 brokers.
  const cacheSize = db.$client.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size ?? -65536;
  db.$client.exec("PRAGMA cache_size = -1048576");
  db.$client.transaction(() => {
    db.delete(reviews).run();
    db.delete(brokerLines).run();
    db.delete(brokerLocations).run();
    db.delete(brokers).run();
    for (const { broker, locations, reviews: brokerReviews } of generateDirectory(options)) {
      insertBroker.run(broker);
      for (const location of locations) insertLocation.run(location);
      for (const line of broker.insuranceLines) insertLine.run({ brokerId: broker.id, lineKey: foldText(line) });
      for (const review of brokerReviews) insertReview.run(review);
      summary.brokers++;
      if (broker.published) summary.publishedBrokers++;
      summary.locations += locations.length;
      summary.reviews += brokerReviews.length;
      if (summary.brokers % PROGRESS_EVERY === 0) onProgress(summary.brokers, options.brokers);
    }
  })();
  db.$client.exec(`PRAGMA cache_size = ${cacheSize}`);
  if (summary.brokers % PROGRESS_EVERY !== 0) onProgress(summary.brokers, options.brokers);
  db.$client.exec("PRAGMA optimize");
  return summary;
}

const BROKER_COLUMNS = [
  "id", "slug", "name", "sortName", "description", "province", "city", "phone", "email", "website",
  "licenseNumber", "foundingYear", "teamSize", "isVerified", "insuranceLines", "specialties", "languages", "published", "createdAt", "updatedAt",
] as const;
const LOCATION_COLUMNS = [
  "id", "brokerId", "address", "city", "cityKey", "province", "postalCode", "phone", "latitude", "longitude", "isPrimary",
] as const;
const REVIEW_COLUMNS = ["id", "brokerId", "authorName", "rating", "title", "body", "published", "createdAt"] as const;

/** `{ column: sql.placeholder("column") }` for the named columns of a prepared insert. */
function placeholders<T, C extends string>(_table: T, columns: readonly C[]) {
  return Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)])) as unknown as Record<C, ReturnType<typeof sql.placeholder>>;
}
