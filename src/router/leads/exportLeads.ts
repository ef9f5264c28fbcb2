import { z } from "zod";
import { csvDocument, csvRows } from "../../domain/csv.ts";
import type { LeadCursor, StoredLead } from "../../storage/stores/leadStore.ts";
import { scopedProcedure } from "../trpc.ts";
import { leadFilterInput, toLeadFilter } from "./leadFilters.ts";
import { optionalText } from "../../schemas/plainText.ts";
import { said } from "../../schemas/frenchMessages.ts";

/**
 * Leads read per page of an export. A page is one call, one rate-limit unit and about 1.5 MB
 * of CSV at most (notes are long): REST and the console stream the pages of a file one after
 * another, charging each, so an export costs in proportion to what it reads.
 */
export const EXPORT_PAGE_LEADS = 1_000;

/** "createdAt.order" of the last lead of a page (see LeadCursor): numbers only, safe integers. */
const CURSOR = /^(\d{1,15})\.(\d{1,15})$/;

export const exportLeadsInput = z.object({
  ...leadFilterInput,
  cursor: optionalText(z.string().regex(CURSOR, { error: said("must be the nextCursor of the previous page", "doit être le nextCursor de la page précédente") })).describe(
    "Where the page starts: the previous page's nextCursor; absent for the first page",
  ),
});
export const exportLeadsOutput = z.object({
  filename: z.string(),
  csv: z
    .string()
    .describe(
      "This page of the file: RFC 4180, UTF-8, CRLF line ends; formula-like cells start with '. The first page begins with a byte-order mark and the header row; the pages joined in order are the whole file",
    ),
  rows: z.number().int().describe(`Leads in this page (${EXPORT_PAGE_LEADS.toLocaleString("en-CA")} read per page; fewer with a text search)`),
  truncated: z.boolean().describe("true when more leads follow: ask again with cursor set to nextCursor (GET /api/v1/leads.csv streams every page as one file)"),
  nextCursor: z.string().nullable().describe("The cursor of the next page, or null after the last"),
});

const HEADER = ["id", "createdAt", "status", "name", "email", "phone", "insuranceType", "source", "brokerSlug", "quoteId", "notes"];

/** The workspace's leads matching the inbox filters as a CSV file, newest first, one page per call. */
export const exportLeads = scopedProcedure("leads:read")
  .input(exportLeadsInput)
  .output(exportLeadsOutput)
  .query(async ({ ctx, input }) => {
    const after = parseCursor(input.cursor);
    const page = await ctx.services.leads.exportPage(ctx.principal.workspaceId, toLeadFilter(input), after, EXPORT_PAGE_LEADS);
    const rows = page.items.map(cells);
    const day = new Date(ctx.services.now()).toISOString().slice(0, 10);
    return {
      filename: `leads-${day}.csv`,
      csv: after ? csvRows(rows) : csvDocument(HEADER, rows),
      rows: rows.length,
      truncated: page.next !== undefined,
      nextCursor: page.next ? `${page.next.createdAt}.${page.next.order}` : null,
    };
  });

function cells(l: StoredLead): (string | number | null)[] {
  return [l.id, new Date(l.createdAt).toISOString(), l.status, l.name, l.email, l.phone, l.insuranceType, l.source, l.brokerSlug, l.quoteId, l.notes];
}

function parseCursor(cursor: string | undefined): LeadCursor | undefined {
  const match = cursor === undefined ? null : CURSOR.exec(cursor);
  return match ? { createdAt: Number(match[1]), order: Number(match[2]) } : undefined;
}
