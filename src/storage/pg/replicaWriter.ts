import { asc } from "drizzle-orm";
import { carriers } from "../../../db/schema.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { sqliteInserter, type DirectoryRow } from "./directoryCopy.ts";
import type { BrokerBundle } from "./replicaSource.ts";

/** Which local brokers a bundle replaces: these ids, or every id in (after, through]. */
export type Replaced = { ids: readonly number[] } | { after: number; through: number };

/**
 * Writes what PostgreSQL holds into the replica's SQLite file, each call one SQLite transaction.
 * The replica's own triggers run as on any SQLite database (FTS index, local journal, directory
 * version), so BrokerStore and its search index follow the replica as they follow a file written
 * by the seed. The review-aggregate triggers count the reviews inserted here too; the broker
 * rows are then given PostgreSQL's aggregates, so nothing is counted twice and the averages are
 * PostgreSQL's to the last digit.
 */
export class ReplicaWriter {
  private readonly insert;
  private readonly deleteIds;
  private readonly deleteRange;
  private readonly deleteReviewsOf;
  private readonly setAggregates;
  private readonly existingQuery;

  constructor(private readonly db: DirectoryDb) {
    const client = db.$client;
    this.insert = {
      brokers: sqliteInserter(client, "brokers"),
      locations: sqliteInserter(client, "brokerLocations"),
      lines: sqliteInserter(client, "brokerLines"),
      reviews: sqliteInserter(client, "reviews"),
      carriers: sqliteInserter(client, "carriers"),
    };
    this.deleteIds = client.prepare<unknown, [string]>("DELETE FROM brokers WHERE id IN (SELECT value FROM json_each(?))");
    this.deleteRange = client.prepare<unknown, [number, number]>("DELETE FROM brokers WHERE id > ? AND id <= ?");
    this.deleteReviewsOf = client.prepare<unknown, [string]>("DELETE FROM reviews WHERE broker_id IN (SELECT value FROM json_each(?))");
    this.existingQuery = client.prepare<{ id: number }, [string]>("SELECT id FROM brokers WHERE id IN (SELECT value FROM json_each(?))");
    this.setAggregates = client.prepare<unknown, [number, number | null, number, number, number, number, number, number]>(
      "UPDATE brokers SET review_count = ?, average_rating = ?, rating_1 = ?, rating_2 = ?, rating_3 = ?, rating_4 = ?, rating_5 = ? WHERE id = ?",
    );
  }

  /** Replaces brokers whole (deleted locally, cascading to their parts; inserted as PostgreSQL has them). */
  replaceBrokers(bundle: BrokerBundle, replaced: Replaced): void {
    this.db.$client.transaction(() => {
      if ("ids" in replaced) this.deleteIds.run(JSON.stringify(replaced.ids));
      else this.deleteRange.run(replaced.after, replaced.through);
      this.insert.brokers(bundle.brokers);
      this.insert.locations(bundle.locations);
      this.insert.lines(bundle.lines);
      this.insert.reviews(bundle.reviews);
      this.takeAggregates(bundle.brokers);
    })();
  }

  /**
   * Replaces only these brokers' reviews and ratings (the journal said nothing else of theirs
   * changed): the local journal then says "ratings only" too, and the search index updates those
   * brokers in place instead of rebuilding.
   */
  replaceReviews(bundle: Pick<BrokerBundle, "brokers" | "reviews">): void {
    this.db.$client.transaction(() => {
      this.deleteReviewsOf.run(JSON.stringify(bundle.brokers.map((b) => b.id)));
      this.insert.reviews(bundle.reviews);
      this.takeAggregates(bundle.brokers);
    })();
  }

  /**
   * Runs a whole-directory load with the per-row triggers of the directory tables dropped (all
   * but the full-text index's): the aggregates, journal and version they keep are PostgreSQL's
   * to give, and a review insert costs a fifth of the time without them. Readers meanwhile see an
   * unchanged directory version, so cached answers stay those of before the load. The triggers
   * are put back (from their own SQL, read here) whatever happens, then the version moves once
   * and the local journal says "rebuild", so the search index and every cache start afresh.
   */
  async withoutRowTriggers<T>(load: () => Promise<T>): Promise<T> {
    const client = this.db.$client;
    const triggers = client
      .query<{ name: string; sql: string }, []>(
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name NOT LIKE 'brokers_fts%'
           AND tbl_name IN ('brokers', 'broker_locations', 'broker_lines', 'reviews')`,
      )
      .all();
    client.transaction(() => {
      for (const t of triggers) client.run(`DROP TRIGGER "${t.name}"`);
    })();
    try {
      return await load();
    } finally {
      client.transaction(() => {
        for (const t of triggers) client.run(t.sql);
        client.run("UPDATE meta SET value = value + 1 WHERE key = 'directory_version'");
        client.run("INSERT INTO directory_changes (broker_id, ratings_only) VALUES (0, 0)");
      })();
    }
  }

  /** Which of these brokers the replica holds. */
  existing(ids: readonly number[]): number[] {
    return ids.length === 0 ? [] : this.existingQuery.all(JSON.stringify(ids)).map((r) => r.id);
  }

  /** Makes the carriers table hold these rows; writes nothing (the version stays) when it does. */
  replaceCarriers(rows: readonly DirectoryRow<"carriers">[]): boolean {
    const stored = this.db.select().from(carriers).orderBy(asc(carriers.slug)).all();
    if (JSON.stringify(stored) === JSON.stringify(rows)) return false;
    this.db.$client.transaction(() => {
      this.db.delete(carriers).run();
      this.insert.carriers(rows);
    })();
    return true;
  }

  private takeAggregates(brokers: readonly DirectoryRow<"brokers">[]): void {
    for (const b of brokers) this.setAggregates.run(b.reviewCount, b.averageRating, b.rating1, b.rating2, b.rating3, b.rating4, b.rating5, b.id);
  }
}
