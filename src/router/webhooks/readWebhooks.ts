import { z } from "zod";
import { scopedProcedure } from "../trpc.ts";
import { endpointSchema, toEndpointView, webhookId, workspaceEndpoint } from "./webhookView.ts";

/** The workspace's endpoints, oldest first (never their secrets). */
export const listWebhooks = scopedProcedure("webhooks:manage")
  .input(z.object({}).optional())
  .output(z.object({ data: z.array(endpointSchema) }))
  .query(async ({ ctx }) => {
    const now = ctx.services.now();
    return { data: (await ctx.services.webhooks.list(ctx.principal.workspaceId)).map((e) => toEndpointView(e, now)) };
  });

/** One endpoint of the workspace, with why it is disabled when it is. */
export const getWebhook = scopedProcedure("webhooks:manage")
  .input(z.object({ webhookId }))
  .output(endpointSchema)
  .query(async ({ ctx, input }) => toEndpointView(await workspaceEndpoint(ctx.services.webhooks, input.webhookId, ctx.principal.workspaceId), ctx.services.now()));
