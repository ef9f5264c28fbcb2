import { and, asc, eq, gte, sql } from "drizzle-orm";
import { apiKeys, keyUsageDaily } from "../../../db/schema.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";

export type DailyUsage = typeof keyUsageDaily.$inferSelect;

/** The compact daily usage table: one row per key and UTC day, added to in batches. */
export class KeyUsageStore {
  private readonly upsert;
  private readonly writes: GroupCommit;

  constructor(private readonly db: DirectoryDb) {
    this.writes = GroupCommit.of(db.$client);
    this.upsert = db
      .insert(keyUsageDaily)
      .values({
        keyId: sql.placeholder("keyId"),
        day: sql.placeholder("day"),
        requests: sql.placeholder("requests"),
        refused: sql.placeholder("refused"),
      })
      .onConflictDoUpdate({
        target: [keyUsageDaily.keyId, keyUsageDaily.day],
        set: {
          requests: sql`${keyUsageDaily.requests} + excluded.requests`,
          refused: sql`${keyUsageDaily.refused} + excluded.refused`,
        },
      })
      .prepare();
  }

  /** Adds counts to their days, all in one transaction (a write batch: resolves once committed). */
  async add(rows: readonly DailyUsage[]): Promise<void> {
    if (rows.length === 0) return;
    await this.writes.write(() => {
      for (const row of rows) this.upsert.run(row);
    });
  }

  /** The workspace's keys' rows from `fromDay` (YYYY-MM-DD) on, by day. */
  since(workspaceId: string, fromDay: string): DailyUsage[] {
    return this.db
      .select({ keyId: keyUsageDaily.keyId, day: keyUsageDaily.day, requests: keyUsageDaily.requests, refused: keyUsageDaily.refused })
      .from(keyUsageDaily)
      .innerJoin(apiKeys, eq(apiKeys.id, keyUsageDaily.keyId))
      .where(and(eq(apiKeys.workspaceId, workspaceId), gte(keyUsageDaily.day, fromDay)))
      .orderBy(asc(keyUsageDaily.day), asc(keyUsageDaily.keyId))
      .all();
  }
}
