import { z } from "zod";
import { objectExpected } from "../../schemas/fieldErrors.ts";
import { scopedProcedure } from "../trpc.ts";
import { leadDetail, leadDetailSchema, leadId, workspaceLead } from "./leadDetail.ts";
import { LEAD_STATUSES } from "../../domain/leadVocabulary.ts";
import { noteText } from "../../schemas/lead.ts";
import { optionalText } from "../../schemas/plainText.ts";
import { deliverSoon, webhookEvent } from "../webhooks/webhookEvent.ts";
import { toLeadView } from "./leadView.ts";
import { said } from "../../schemas/frenchMessages.ts";

const leadChange = {
  status: z.enum(LEAD_STATUSES, { error: said(`must be one of ${LEAD_STATUSES.join(", ")}`, `doit être l’une des valeurs ${LEAD_STATUSES.join(", ")}`) }).optional().describe("The new status"),
  note: optionalText(noteText).describe("A note kept with the change in the lead's history"),
};
const somethingToRecord = (change: { status?: unknown; note?: unknown }) => change.status !== undefined || change.note !== undefined;
const nothingToRecord = { error: said("send a status, a note, or both", "envoyez un statut, une note, ou les deux") };

/** What a PATCH body may carry: a new status, a note, or both (the lead's id is in the path). */
export const leadChangeInput = z
  .strictObject(leadChange, { error: objectExpected("a JSON object {status?, note?}", "un objet JSON {status?, note?}") })
  .refine(somethingToRecord, nothingToRecord);
export const updateLeadInput = z
  .strictObject({ leadId, ...leadChange }, { error: objectExpected("a JSON object {status?, note?}", "un objet JSON {status?, note?}") })
  .refine(somethingToRecord, nothingToRecord);
export const updateLeadOutput = leadDetailSchema;

/**
 * Records a status change and/or a note as a new history entry; nothing earlier is changed.
 * Two changes made at once (two tabs, two scripts) are both kept; the later is the status.
 * Any status may follow any other (a lost lead can come back); a note alone keeps the status.
 */
export const updateLead = scopedProcedure("leads:write")
  .input(updateLeadInput)
  .output(updateLeadOutput)
  .mutation(async ({ ctx, input }) => {
    // Only that it exists here and its status: the whole detail is read once, after the change.
    const current = await workspaceLead(ctx.services, input.leadId, ctx.principal.workspaceId);
    const now = ctx.services.now();
    const status = input.status ?? current.status;
    // A change of status is told to the workspace's webhooks, in the same transaction; a note alone is not.
    const changed = status === current.status ? undefined : webhookEvent(ctx, "lead.status_changed", { ...toLeadView({ ...current, status }), previousStatus: current.status }, now);
    const queued = await ctx.services.leads.appendEvent(
      { leadId: current.id, status, note: input.note ?? null, actor: ctx.surface === "console" ? "console" : ctx.principal.keyId, createdAt: now },
      changed,
    );
    deliverSoon(ctx, queued);
    return leadDetail(ctx.services, current.id, ctx.principal.workspaceId);
  });
