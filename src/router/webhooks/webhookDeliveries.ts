import { z } from "zod";
import { TEST_EVENT_TYPE } from "../../domain/webhooks/webhookEvents.ts";
import { CodedError } from "../../schemas/errorCodes.ts";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { scopedProcedure } from "../trpc.ts";
import { deliverSoon, webhookEvent } from "./webhookEvent.ts";
import { deliverySchema, toDeliveryView, webhookId, workspaceEndpoint } from "./webhookView.ts";

const MAX_LISTED_DELIVERIES = 100;

/** The endpoint's latest deliveries, newest first: status, attempts, response code, latency. */
export const listWebhookDeliveries = scopedProcedure("webhooks:manage")
  .input(z.object({ webhookId, limit: wholeNumberParam(1, MAX_LISTED_DELIVERIES).optional().describe(`How many, newest first (default 20, at most ${MAX_LISTED_DELIVERIES})`) }))
  .output(z.object({ data: z.array(deliverySchema) }))
  .query(async ({ ctx, input }) => {
    const endpoint = await workspaceEndpoint(ctx.services.webhooks, input.webhookId, ctx.principal.workspaceId);
    const found = await ctx.services.webhooks.deliveries(endpoint.id, ctx.principal.workspaceId, input.limit ?? 20);
    return { data: found.map(toDeliveryView) };
  });

/** Sends the endpoint a `webhook.test` event now (queued like any other, so it is retried too). */
export const testWebhook = scopedProcedure("webhooks:manage")
  .input(z.object({ webhookId }))
  .output(z.object({ eventId: z.string(), type: z.literal(TEST_EVENT_TYPE) }))
  .mutation(async ({ ctx, input }) => {
    const endpoint = await workspaceEndpoint(ctx.services.webhooks, input.webhookId, ctx.principal.workspaceId);
    const now = ctx.services.now();
    const event = webhookEvent(ctx, TEST_EVENT_TYPE, { endpointId: endpoint.id, message: "A test event from Broker Directory." }, now);
    await ctx.services.webhooks.enqueue(event, endpoint.id);
    deliverSoon(ctx, 1);
    return { eventId: event.id, type: TEST_EVENT_TYPE };
  });

/** Sends a delivery's event to its endpoint again: a new delivery, with the same webhook-id (the receiver's deduplication still works). */
export const resendWebhookDelivery = scopedProcedure("webhooks:manage")
  .input(z.object({ webhookId, deliveryId: wholeNumberParam(1, Number.MAX_SAFE_INTEGER).describe("The delivery's id, as listed") }))
  .output(deliverySchema)
  .mutation(async ({ ctx, input }) => {
    const endpoint = await workspaceEndpoint(ctx.services.webhooks, input.webhookId, ctx.principal.workspaceId);
    const resent = await ctx.services.webhooks.resend(input.deliveryId, endpoint.id, ctx.principal.workspaceId, ctx.services.now());
    if (!resent) throw new CodedError("not_found", `No delivery with the id ${input.deliveryId} exists for this endpoint.`);
    deliverSoon(ctx, 1);
    return toDeliveryView(resent);
  });
