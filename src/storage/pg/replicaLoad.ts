import { sql } from "drizzle-orm";
import type { PgDb } from "./pgDatabase.ts";
import { inSnapshot, readBrokerPage, type PgSnapshot } from "./replicaSource.ts";
import type { ReplicaWriter } from "./replicaWriter.ts";

/** Each SQLite step of a load aims at this long: the event loop answers requests between steps. */
const TARGET_STEP_MS = 15;
const MIN_PAGE = 50;
const MAX_PAGE = 5_000;
const FIRST_PAGE = 100;
/** The journal numbers read with the snapshot, for the cursor to spot writes still in flight. */
const RECENT_JOURNAL = 1_000;

export interface LoadResult {
  brokers: number;
  /** The journal's latest sequence numbers as the snapshot saw them (their changes are loaded). */
  seenSeqs: number[];
  /** The longest synchronous SQLite step, in ms (the event loop's longest wait for the load). */
  longestStepMs: number;
}

/**
 * Copies the whole directory from one PostgreSQL snapshot (REPEATABLE READ, so every page and the
 * journal position agree) into the replica, page by page in broker id order: each page's brokers
 * (with their offices, lines and reviews) replace the replica's brokers in the same id range in
 * one SQLite transaction. Pages are sized so that a step takes about 15 ms (growing by at most half per page), whatever the number of
 * reviews per broker, and the event loop serves requests between them.
 *
 * What readers see during a RE-load (after a seed, or when the replica fell too far behind): each
 * broker is whole, either as it was or as it is now, but the directory is a mix of both until the
 * last page (brokers past the new last id are removed at the end). Searches meanwhile answer from
 * that mix, for the load's duration: about a second at 10,000 brokers.
 */
export function loadWholeDirectory(pg: PgDb, writer: ReplicaWriter, stopped: () => boolean): Promise<LoadResult> {
  return writer.withoutRowTriggers(() =>
    inSnapshot(pg, async (tx) => {
      const seenSeqs = await recentJournal(tx);
      let after = 0;
      let size = FIRST_PAGE;
      let brokers = 0;
      let longestStepMs = 0;
      const read = (from: number, limit: number) => readBrokerPage(tx, from, limit).then((page) => ({ page, limit }));
      let next = read(after, size);
      for (;;) {
        const { page, limit } = await next;
        if (stopped()) break;
        const last = page.brokers.at(-1)?.id;
        const final = page.brokers.length < limit || last === undefined;
        const through = final ? Number.MAX_SAFE_INTEGER : last;
        // The next page is read by PostgreSQL while this one is written here.
        if (!final) next = read(through, size);
        const started = performance.now();
        writer.replaceBrokers(page, { after, through });
        const ms = performance.now() - started;
        longestStepMs = Math.max(longestStepMs, Math.round(ms));
        brokers += page.brokers.length;
        if (final) break;
        after = through;
        size = Math.min(MAX_PAGE, Math.max(MIN_PAGE, Math.round(size * Math.min(1.5, TARGET_STEP_MS / Math.max(ms, 1)))));
      }
      return { brokers, seenSeqs, longestStepMs };
    }),
  );
}

async function recentJournal(tx: PgSnapshot): Promise<number[]> {
  const rows = await tx.execute<{ seq: string }>(sql`SELECT seq FROM directory_changes ORDER BY seq DESC LIMIT ${RECENT_JOURNAL}`);
  return rows.map((r) => Number(r.seq)).reverse();
}
