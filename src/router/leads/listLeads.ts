import { z } from "zod";
import { pageInput, paginate, pagedSchema } from "../../schemas/pagination.ts";
import { scopedProcedure } from "../trpc.ts";
import { leadFilterInput, toLeadFilter } from "./leadFilters.ts";
import { leadSchema } from "../../schemas/lead.ts";
import { toLeadView } from "./leadView.ts";

export const listLeadsInput = z.object({ ...pageInput, ...leadFilterInput });
export const listLeadsOutput = pagedSchema(leadSchema, "The workspace's leads, newest first");

/** The caller's workspace's leads, newest first, optionally filtered; no other workspace's lead is ever listed. */
export const listLeads = scopedProcedure("leads:read")
  .input(listLeadsInput)
  .output(listLeadsOutput)
  .query(async ({ ctx, input }) => {
    const { items, total } = await ctx.services.leads.search(ctx.principal.workspaceId, toLeadFilter(input), input.page, input.limit);
    return { data: items.map(toLeadView), pagination: paginate(input.page, input.limit, total) };
  });
