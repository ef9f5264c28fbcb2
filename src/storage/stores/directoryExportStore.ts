import { asc, eq, gt, inArray } from "drizzle-orm";
import type { reviews } from "../../../db/schema.ts";
import { rows, type Awaitable, type Executor } from "../executor.ts";
import type { StoredBroker, StoredOffice } from "./importedBroker.ts";

export interface ExportedBroker {
  broker: StoredBroker;
  /** Its offices, in the order they were written (the primary need not be first). */
  offices: StoredOffice[];
}

export interface ExportedReview {
  review: typeof reviews.$inferSelect;
  brokerExternalId: string | null;
  brokerSlug: string;
}

/**
 * The directory read whole for `export` (issue 27), published and unpublished alike, in pages by
 * id (keyset: each page one index range, however far in), written once for both dialects.
 */
export class DirectoryExportStore {
  constructor(private readonly x: Executor) {}

  /** Up to `limit` brokers after id `after`, each with its offices. */
  brokerPage(after: number, limit: number): Awaitable<ExportedBroker[]> {
    return this.x.read(function* (db, { brokers, brokerLocations }) {
      const page = yield* rows(db.select().from(brokers).where(gt(brokers.id, after)).orderBy(asc(brokers.id)).limit(limit));
      if (page.length === 0) return [];
      const offices = yield* rows(
        db.select().from(brokerLocations).where(inArray(brokerLocations.brokerId, page.map((broker) => broker.id))).orderBy(asc(brokerLocations.brokerId), asc(brokerLocations.id)),
      );
      const byBroker = new Map<number, StoredOffice[]>();
      for (const office of offices) byBroker.set(office.brokerId, [...(byBroker.get(office.brokerId) ?? []), office]);
      return page.map((broker) => ({ broker, offices: byBroker.get(broker.id) ?? [] }));
    });
  }

  /** Up to `limit` reviews after id `after`, with the keys that name their broker. */
  reviewPage(after: number, limit: number): Awaitable<ExportedReview[]> {
    return this.x.read(function* (db, { brokers, reviews }) {
      return yield* rows(
        db
          .select({ review: reviews, brokerExternalId: brokers.externalId, brokerSlug: brokers.slug })
          .from(reviews)
          .innerJoin(brokers, eq(brokers.id, reviews.brokerId))
          .where(gt(reviews.id, after))
          .orderBy(asc(reviews.id))
          .limit(limit),
      );
    });
  }
}
