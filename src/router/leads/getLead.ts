import { z } from "zod";
import { scopedProcedure } from "../trpc.ts";
import { leadDetail, leadDetailSchema, leadId } from "./leadDetail.ts";

export const getLeadInput = z.object({ leadId });
export const getLeadOutput = leadDetailSchema;

/** One lead of the caller's workspace, with its quote and offers, its broker and its history. */
export const getLead = scopedProcedure("leads:read")
  .input(getLeadInput)
  .output(getLeadOutput)
  .query(({ ctx, input }) => leadDetail(ctx.services, input.leadId, ctx.principal.workspaceId));
