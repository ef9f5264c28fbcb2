import { and, asc, eq, gte, sql } from "drizzle-orm";
import { apiKeys, keyUsageDaily } from "../../../db/schema.pg.ts";
import type { DailyUsage } from "../stores/keyUsageStore.ts";
import type { KeyUsageStorePort } from "../ports.ts";
import type { PgDb } from "./pgDatabase.ts";

/** KeyUsageStore over PostgreSQL (see src/storage/stores/keyUsageStore.ts): every instance adds to the same rows. */
export class PgKeyUsageStore implements KeyUsageStorePort {
  constructor(private readonly pg: PgDb) {}

  /**
   * Adds counts to their days in one statement (atomic, and the addition is done by PostgreSQL,
   * so instances flushing at once add up). A statement may touch a row once: rows of the same
   * key and day are summed first.
   */
  async add(rows: readonly DailyUsage[]): Promise<void> {
    if (rows.length === 0) return;
    const summed = new Map<string, DailyUsage>();
    for (const row of rows) {
      const id = `${row.keyId}|${row.day}`;
      const existing = summed.get(id);
      if (existing) {
        existing.requests += row.requests;
        existing.refused += row.refused;
      } else summed.set(id, { ...row });
    }
    await this.pg
      .insert(keyUsageDaily)
      .values([...summed.values()])
      .onConflictDoUpdate({
        target: [keyUsageDaily.keyId, keyUsageDaily.day],
        set: {
          requests: sql`${keyUsageDaily.requests} + excluded.requests`,
          refused: sql`${keyUsageDaily.refused} + excluded.refused`,
        },
      });
  }

  /** The workspace's keys' rows from `fromDay` (YYYY-MM-DD) on, by day. */
  since(workspaceId: string, fromDay: string): Promise<DailyUsage[]> {
    return this.pg
      .select({ keyId: keyUsageDaily.keyId, day: keyUsageDaily.day, requests: keyUsageDaily.requests, refused: keyUsageDaily.refused })
      .from(keyUsageDaily)
      .innerJoin(apiKeys, eq(apiKeys.id, keyUsageDaily.keyId))
      .where(and(eq(apiKeys.workspaceId, workspaceId), gte(keyUsageDaily.day, fromDay)))
      .orderBy(asc(keyUsageDaily.day), asc(keyUsageDaily.keyId));
  }
}
