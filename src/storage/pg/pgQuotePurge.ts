import { QUOTE_PURGE_BATCH, QUOTE_PURGE_GRACE_MS, nextPurgeStart } from "../stores/quotePurge.ts";
import type { QuotePurgePort } from "../ports.ts";
import type { PgDb } from "./pgDatabase.ts";

/**
 * QuotePurge over PostgreSQL (see src/storage/stores/quotePurge.ts for the rules, kept identical): one
 * batch per call, oldest expiry first, each batch one short transaction. Several instances may
 * purge at once: a quote deleted by another is simply not counted here.
 */
export class PgQuotePurge implements QuotePurgePort {
  constructor(private readonly pg: PgDb) {}

  /** One batch: the number deleted and where the next batch starts (undefined when done). */
  async batch(nowMs: number, from: number): Promise<{ deleted: number; next: number | undefined }> {
    const cutoff = nowMs - QUOTE_PURGE_GRACE_MS;
    return this.pg.$client.begin(async (tx) => {
      const candidates = await tx<{ id: string; expiresAt: string; referenced: boolean }[]>`
        SELECT q.id, q.expires_at AS "expiresAt",
               EXISTS (SELECT 1 FROM leads l WHERE l.quote_id = q.id) AS referenced
          FROM quotes q
         WHERE q.expires_at >= ${from} AND q.expires_at < ${cutoff}
         ORDER BY q.expires_at
         LIMIT ${QUOTE_PURGE_BATCH}`;
      const last = candidates.length > 0 ? Number(candidates.at(-1)!.expiresAt) : from;
      const unreferenced = candidates.filter((c) => !c.referenced).map((c) => c.id);
      // The offers go with their quote (ON DELETE CASCADE); the lead check is repeated inside the
      // write, so a lead written since the batch was read keeps its quote.
      const removed =
        unreferenced.length === 0
          ? []
          : await tx`DELETE FROM quotes q WHERE q.id = ANY(${unreferenced}::text[])
                       AND NOT EXISTS (SELECT 1 FROM leads l WHERE l.quote_id = q.id) RETURNING q.id`;
      return { deleted: removed.length, next: nextPurgeStart(from, candidates.length, last, removed.length) };
    });
  }
}
