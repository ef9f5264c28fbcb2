import { z } from "zod";
import { MAX_ENDPOINTS_PER_WORKSPACE, newWebhookSecret } from "../../domain/webhooks/webhookEvents.ts";
import { CodedError } from "../../schemas/errorCodes.ts";
import { objectExpected } from "../../schemas/fieldErrors.ts";
import type { StoredEndpoint, WebhookStore } from "../../storage/stores/webhookStore.ts";
import { scopedProcedure } from "../trpc.ts";
import { endpointFields, endpointUrl } from "./webhookInput.ts";
import { endpointWithSecretSchema, toEndpointView } from "./webhookView.ts";

export const createWebhookInput = z.strictObject(endpointFields, { error: objectExpected("a JSON object {url, events, description?}", "un objet JSON {url, events, description?}") });

/**
 * Registers an endpoint of the caller's workspace and answers its signing secret, once. A URL the
 * server would never send to is refused now, a 422 naming `url` (endpointUrl).
 */
export const createWebhook = scopedProcedure("webhooks:manage")
  .input(createWebhookInput)
  .output(endpointWithSecretSchema)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.services.now();
    const made = await registerEndpoint(ctx.services.webhooks, ctx.services.webhookPolicy.allowHttpLoopback, ctx.principal.workspaceId, input, now);
    return { ...toEndpointView(made, now), secret: made.secret };
  });

/** Registration itself, for the procedure and the operator's CLI (`webhooks create`) alike. */
export async function registerEndpoint(
  store: WebhookStore,
  allowHttpLoopback: boolean,
  workspaceId: string,
  input: z.output<typeof createWebhookInput>,
  now: number,
): Promise<StoredEndpoint> {
  const endpoint = {
    id: `we_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
    workspaceId,
    url: endpointUrl(input.url, allowHttpLoopback),
    events: input.events,
    description: input.description ?? null,
    secret: newWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledAt: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  const made = await store.create(endpoint, MAX_ENDPOINTS_PER_WORKSPACE);
  if (made === "limit") {
    throw new CodedError("webhook_limit_reached", `This workspace already has ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints, the most it may have. Delete one first.`);
  }
  return made;
}
