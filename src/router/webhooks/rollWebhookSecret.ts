import { z } from "zod";
import { ROLL_GRACE_MS, ROLL_GRACES } from "../../auth/keyVocabulary.ts";
import { newWebhookSecret } from "../../domain/webhooks/webhookEvents.ts";
import { scopedProcedure } from "../trpc.ts";
import { endpointWithSecretSchema, toEndpointView, webhookId, webhookNotFound } from "./webhookView.ts";
import { said } from "../../schemas/frenchMessages.ts";

export const rollWebhookSecretInput = z.object({
  webhookId,
  overlap: z
    .enum(ROLL_GRACES, { error: said(`must be one of ${ROLL_GRACES.join(", ")}`, `doit être l’une des valeurs ${ROLL_GRACES.join(", ")}`) })
    .optional()
    .default("24h")
    .describe("How long the current secret keeps signing beside the new one: now, 1h, 24h (default) or 7d"),
});

/**
 * Gives the endpoint a new signing secret, answered once. During the overlap every delivery
 * carries two signatures (`v1,<new> v1,<old>`), so a receiver still checking with the old secret
 * keeps accepting until it has switched.
 */
export const rollWebhookSecret = scopedProcedure("webhooks:manage")
  .input(rollWebhookSecretInput)
  .output(endpointWithSecretSchema)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.services.now();
    const secret = newWebhookSecret();
    const rolled = await ctx.services.webhooks.rollSecret(input.webhookId, ctx.principal.workspaceId, secret, now + ROLL_GRACE_MS[input.overlap], now);
    if (!rolled) webhookNotFound(input.webhookId);
    return { ...toEndpointView(rolled, now), secret };
  });
