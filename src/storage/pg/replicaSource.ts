import { and, asc, gt, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import * as pg from "../../../db/schema.pg.ts";
import type { DirectoryRow } from "./directoryCopy.ts";
import type { PgDb } from "./pgDatabase.ts";

/** A read-only snapshot of PostgreSQL (one REPEATABLE READ transaction): what the replica reads from. */
export type PgSnapshot = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** Some brokers as PostgreSQL has them, each whole: its row, offices, lines and reviews. */
export interface BrokerBundle {
  brokers: DirectoryRow<"brokers">[];
  locations: DirectoryRow<"brokerLocations">[];
  lines: DirectoryRow<"brokerLines">[];
  reviews: DirectoryRow<"reviews">[];
}

/** One journal entry: this broker changed (only its ratings, or more); broker 0 = reload everything. */
export interface JournalEntry {
  seq: number;
  brokerId: number;
  ratingsOnly: boolean;
}

/** Runs `read` in one consistent, read-only snapshot of PostgreSQL. */
export function inSnapshot<T>(db: PgDb, read: (tx: PgSnapshot) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}

/** The next `limit` brokers by id after `afterId`, with everything of theirs. */
export async function readBrokerPage(tx: PgSnapshot, afterId: number, limit: number): Promise<BrokerBundle> {
  const brokers = await tx.select().from(pg.brokers).where(gt(pg.brokers.id, afterId)).orderBy(asc(pg.brokers.id)).limit(limit);
  const first = brokers[0]?.id;
  const last = brokers.at(-1)?.id;
  if (first === undefined || last === undefined) return { brokers, locations: [], lines: [], reviews: [] };
  return { brokers, ...(await readParts(tx, (brokerId) => and(gte(brokerId, first), lte(brokerId, last)))) };
}

/** These brokers (those that still exist), with everything of theirs. */
export async function readBrokers(tx: PgSnapshot, ids: readonly number[]): Promise<BrokerBundle> {
  const brokers = await tx.select().from(pg.brokers).where(inArray(pg.brokers.id, [...ids]));
  return { brokers, ...(await readParts(tx, (brokerId) => inArray(brokerId, [...ids]))) };
}

/** Only the reviews of these brokers (and their rows, for PostgreSQL's aggregates). */
export async function readReviewsOf(tx: PgSnapshot, ids: readonly number[]): Promise<Pick<BrokerBundle, "brokers" | "reviews">> {
  const [brokers, reviews] = await Promise.all([
    tx.select().from(pg.brokers).where(inArray(pg.brokers.id, [...ids])),
    tx.select().from(pg.reviews).where(inArray(pg.reviews.brokerId, [...ids])),
  ]);
  return { brokers, reviews };
}

type BrokerIdCondition = (brokerId: AnyPgColumn) => SQL | undefined;

async function readParts(tx: PgSnapshot, which: BrokerIdCondition): Promise<Omit<BrokerBundle, "brokers">> {
  // Within one transaction postgres.js runs these one after the other on its connection anyway;
  // sequential reads keep that explicit.
  const locations = await tx.select().from(pg.brokerLocations).where(which(pg.brokerLocations.brokerId));
  const lines = await tx.select().from(pg.brokerLines).where(which(pg.brokerLines.brokerId));
  const reviews = await tx.select().from(pg.reviews).where(which(pg.reviews.brokerId));
  return { locations, lines, reviews };
}

/** The journal after `afterSeq`, oldest first, with the oldest entry still kept (pruning). */
export async function readJournal(tx: PgSnapshot, afterSeq: number): Promise<{ entries: JournalEntry[]; oldest: number | null; latest: number | null }> {
  const [bounds] = await tx.execute<{ oldest: string | null; latest: string | null }>(
    sql`SELECT min(seq) AS oldest, max(seq) AS latest FROM directory_changes`,
  );
  const entries = await tx
    .select()
    .from(pg.directoryChanges)
    .where(gt(pg.directoryChanges.seq, afterSeq))
    .orderBy(asc(pg.directoryChanges.seq));
  const asNumber = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { entries, oldest: asNumber(bounds?.oldest), latest: asNumber(bounds?.latest) };
}

/** The carrier catalogue, by slug. */
export function readCarriers(tx: PgSnapshot): Promise<DirectoryRow<"carriers">[]> {
  return tx.select().from(pg.carriers).orderBy(asc(pg.carriers.slug));
}
