import type { DirectoryDb } from "../sqlite/database.ts";

/** Past this many changes at once, rebuilding is as quick as applying them one by one. */
const MAX_APPLIED_CHANGES = 2_000;

/** What changed since a point in the journal: only some brokers' ratings, or more (rebuild). */
export type ChangesSince = { last: number; ratingsOf: number[] } | { last: number; rebuild: true };

/**
 * Reads the `directory_changes` journal (written by triggers, from any process: migration
 * 0009). A reader remembers the last sequence number it applied and asks what came after.
 */
export class DirectoryChanges {
  private readonly latestQuery;
  private readonly oldestQuery;
  private readonly sinceQuery;

  constructor(db: DirectoryDb) {
    this.latestQuery = db.$client.query<{ seq: number | null }, []>("SELECT max(seq) AS seq FROM directory_changes");
    this.oldestQuery = db.$client.query<{ seq: number | null }, []>("SELECT min(seq) AS seq FROM directory_changes");
    this.sinceQuery = db.$client.query<[number, number, number], [number, number]>(
      "SELECT seq, broker_id, ratings_only FROM directory_changes WHERE seq > ? ORDER BY seq LIMIT ?",
    );
  }

  /** The sequence number of the latest change (0 when none): read it before reading what it covers. */
  latest(): number {
    return this.latestQuery.get()?.seq ?? 0;
  }

  /**
   * The brokers whose ratings changed after `seq`, or `rebuild` when anything else changed, when
   * the journal no longer reaches back that far (pruned, or a different database file), or when
   * there are too many changes to apply one by one.
   */
  since(seq: number): ChangesSince {
    const latest = this.latest();
    if (latest === seq) return { last: seq, ratingsOf: [] };
    const oldest = this.oldestQuery.get()?.seq ?? 0;
    if (latest < seq || oldest > seq + 1) return { last: latest, rebuild: true };
    const rows = this.sinceQuery.values(seq, MAX_APPLIED_CHANGES + 1) as [number, number, number][];
    if (rows.length > MAX_APPLIED_CHANGES) return { last: latest, rebuild: true };
    const brokers = new Set<number>();
    for (const [, brokerId, ratingsOnly] of rows) {
      if (ratingsOnly !== 1) return { last: latest, rebuild: true };
      brokers.add(brokerId);
    }
    return { last: rows.at(-1)?.[0] ?? seq, ratingsOf: [...brokers] };
  }
}
