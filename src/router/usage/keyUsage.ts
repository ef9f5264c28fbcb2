import { z } from "zod";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { DAY_MS, utcDay } from "../../storage/stores/usageCounter.ts";
import { scopedProcedure } from "../trpc.ts";

export const MAX_USAGE_DAYS = 30;

export const keyUsageInput = z.object({
  days: wholeNumberParam(1, MAX_USAGE_DAYS).optional().default(MAX_USAGE_DAYS).describe(`Days back from today (UTC), 1 to ${MAX_USAGE_DAYS} (default ${MAX_USAGE_DAYS})`),
});

const perDay = z.array(z.number().int()).describe("One count per entry of `days`");
export const keyUsageOutput = z.object({
  days: z.array(z.string()).describe("UTC days, oldest first, YYYY-MM-DD, today last"),
  keys: z
    .array(
      z.object({
        keyId: z.string(),
        name: z.string(),
        prefix: z.string(),
        requests: perDay.describe("Requests admitted per day"),
        refused: perDay.describe("Requests refused by the key's rate limit per day"),
        totalRequests: z.number().int(),
        totalRefused: z.number().int(),
      }),
    )
    .describe("Keys of the workspace with any request in the period"),
  totals: z.object({ requests: z.number().int(), refused: z.number().int() }),
});

/**
 * Requests per key per day over the last `days` UTC days, from the daily table plus what the
 * in-memory counter has not written yet, so the numbers are current to the request.
 */
export const keyUsage = scopedProcedure("keys:manage")
  .input(keyUsageInput)
  .output(keyUsageOutput)
  .query(async ({ ctx, input }) => {
    const { services } = ctx;
    const now = services.now();
    const days = Array.from({ length: input.days }, (_, i) => utcDay(now - (input.days - 1 - i) * DAY_MS));
    const keys = await services.keys.listIn(ctx.principal.workspaceId);
    // Stored first, then pending: counts a flush moves in between are missed for this one
    // answer at worst (PostgreSQL), never counted twice.
    const stored = await services.keyUsage.since(ctx.principal.workspaceId, days[0]!);
    const rows = [...stored, ...services.usage.pendingFor(new Set(keys.map((k) => k.id)), days[0]!)];
    const index = new Map(days.map((d, i) => [d, i]));
    const series = new Map(keys.map((k) => [k.id, { keyId: k.id, name: k.name, prefix: k.displayPrefix, requests: days.map(() => 0), refused: days.map(() => 0), totalRequests: 0, totalRefused: 0 }]));
    for (const row of rows) {
      const at = index.get(row.day);
      const entry = series.get(row.keyId);
      if (at === undefined || !entry) continue;
      entry.requests[at]! += row.requests;
      entry.refused[at]! += row.refused;
      entry.totalRequests += row.requests;
      entry.totalRefused += row.refused;
    }
    const used = [...series.values()].filter((s) => s.totalRequests + s.totalRefused > 0);
    return {
      days,
      keys: used,
      totals: { requests: used.reduce((n, s) => n + s.totalRequests, 0), refused: used.reduce((n, s) => n + s.totalRefused, 0) },
    };
  });
