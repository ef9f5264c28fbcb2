import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { keyUsageDaily } from "../../../db/schema.ts";
import { run, type Awaitable, type Executor } from "../executor.ts";

export type DailyUsage = typeof keyUsageDaily.$inferSelect;

/** Rows per INSERT: 4 parameters each, well under either dialect's limit on a statement's parameters. */
const ROWS_PER_STATEMENT = 1_000;

/** The compact daily usage table: one row per key and UTC day, added to in batches (by every instance with PostgreSQL). */
export class KeyUsageStore {
  constructor(private readonly x: Executor) {}

  /**
   * Adds counts to their days, all in one transaction (resolves once committed). The addition
   * is done by the database, so instances flushing at once add up; a statement may touch a row
   * once (PostgreSQL), so rows of the same key and day are summed first.
   */
  async add(rows: readonly DailyUsage[]): Promise<void> {
    if (rows.length === 0) return;
    const summed = [...sumByKeyAndDay(rows).values()];
    await this.x.write(function* (db, { keyUsageDaily }) {
      for (let i = 0; i < summed.length; i += ROWS_PER_STATEMENT) {
        yield* run(
          db
            .insert(keyUsageDaily)
            .values(summed.slice(i, i + ROWS_PER_STATEMENT))
            .onConflictDoUpdate({
              target: [keyUsageDaily.keyId, keyUsageDaily.day],
              set: {
                requests: sql`${keyUsageDaily.requests} + excluded.requests`,
                refused: sql`${keyUsageDaily.refused} + excluded.refused`,
              },
            }),
        );
      }
    });
  }

  /** The workspace's keys' rows from `fromDay` (YYYY-MM-DD) on, by day. */
  since(workspaceId: string, fromDay: string): Awaitable<DailyUsage[]> {
    return this.x.rows((db, { apiKeys, keyUsageDaily }) =>
      db
        .select({ keyId: keyUsageDaily.keyId, day: keyUsageDaily.day, requests: keyUsageDaily.requests, refused: keyUsageDaily.refused })
        .from(keyUsageDaily)
        .innerJoin(apiKeys, eq(apiKeys.id, keyUsageDaily.keyId))
        .where(and(eq(apiKeys.workspaceId, workspaceId), gte(keyUsageDaily.day, fromDay)))
        .orderBy(asc(keyUsageDaily.day), asc(keyUsageDaily.keyId)),
    );
  }
}

function sumByKeyAndDay(rows: readonly DailyUsage[]): Map<string, DailyUsage> {
  const summed = new Map<string, DailyUsage>();
  for (const row of rows) {
    const id = `${row.keyId}|${row.day}`;
    const existing = summed.get(id);
    if (existing) {
      existing.requests += row.requests;
      existing.refused += row.refused;
    } else summed.set(id, { ...row });
  }
  return summed;
}
