import { z } from "zod";
import { csvDocument } from "../../domain/csv.ts";
import { scopedProcedure } from "../trpc.ts";
import { leadFilterInput, toLeadFilter } from "./leadFilters.ts";

/** Rows in one export at most: the file is built in memory. */
export const MAX_EXPORT_ROWS = 20_000;

export const exportLeadsInput = z.object(leadFilterInput);
export const exportLeadsOutput = z.object({
  filename: z.string(),
  csv: z.string().describe("RFC 4180, UTF-8 with a byte-order mark, CRLF line ends; formula-like cells start with '"),
  rows: z.number().int(),
  truncated: z.boolean().describe(`true when more than ${MAX_EXPORT_ROWS.toLocaleString("en-CA")} leads matched (the newest are exported)`),
});

const HEADER = ["id", "createdAt", "status", "name", "email", "phone", "insuranceType", "source", "brokerSlug", "quoteId", "notes"];

/** The workspace's leads matching the inbox filters as a CSV file, newest first. */
export const exportLeads = scopedProcedure("leads:read")
  .input(exportLeadsInput)
  .output(exportLeadsOutput)
  .query(async ({ ctx, input }) => {
    const leads = await ctx.services.leads.all(ctx.principal.workspaceId, toLeadFilter(input), MAX_EXPORT_ROWS + 1);
    const rows = leads.slice(0, MAX_EXPORT_ROWS).map((l) => [
      l.id,
      new Date(l.createdAt).toISOString(),
      l.status,
      l.name,
      l.email,
      l.phone,
      l.insuranceType,
      l.source,
      l.brokerSlug,
      l.quoteId,
      l.notes,
    ]);
    const day = new Date(ctx.services.now()).toISOString().slice(0, 10);
    return { filename: `leads-${day}.csv`, csv: csvDocument(HEADER, rows), rows: rows.length, truncated: leads.length > MAX_EXPORT_ROWS };
  });
