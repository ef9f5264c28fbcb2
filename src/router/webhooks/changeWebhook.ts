import { z } from "zod";
import { objectExpected } from "../../schemas/fieldErrors.ts";
import { scopedProcedure } from "../trpc.ts";
import { endpointFields, endpointUrl } from "./webhookInput.ts";
import { endpointSchema, toEndpointView, webhookId, webhookNotFound } from "./webhookView.ts";
import { said } from "../../schemas/frenchMessages.ts";

const endpointChange = {
  url: endpointFields.url.optional(),
  events: endpointFields.events.optional(),
  description: endpointFields.description,
  enabled: z.boolean({ error: said("must be true or false", "doit être true ou false") }).optional().describe("false disables it; true enables it again (a disabled endpoint's pending deliveries resume)"),
};

export const updateWebhookInput = z.strictObject({ webhookId, ...endpointChange }, { error: objectExpected("a JSON object {url?, events?, description?, enabled?}", "un objet JSON {url?, events?, description?, enabled?}") });

/** Changes an endpoint's URL (checked as at registration), events, description, or whether it is enabled. */
export const updateWebhook = scopedProcedure("webhooks:manage")
  .input(updateWebhookInput)
  .output(endpointSchema)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.services.now();
    const { webhookId: id, url, ...rest } = input;
    const change = { ...rest, ...(url === undefined ? {} : { url: endpointUrl(url, ctx.services.webhookPolicy.allowHttpLoopback) }) };
    const updated = await ctx.services.webhooks.update(id, ctx.principal.workspaceId, change, now);
    return toEndpointView(updated ?? webhookNotFound(id), now);
  });

/** Removes an endpoint and its delivery log; nothing more is sent to it. */
export const deleteWebhook = scopedProcedure("webhooks:manage")
  .input(z.object({ webhookId }))
  .output(z.object({ id: z.string(), deleted: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    if (!(await ctx.services.webhooks.delete(input.webhookId, ctx.principal.workspaceId))) webhookNotFound(input.webhookId);
    return { id: input.webhookId, deleted: true as const };
  });
