import { z } from "zod";
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/webhookEvents.ts";
import { CodedError } from "../../schemas/errorCodes.ts";
import { requiredOr } from "../../schemas/fieldErrors.ts";
import { idText } from "../../schemas/idText.ts";
import type { ListedDelivery, StoredEndpoint, WebhookStore } from "../../storage/stores/webhookStore.ts";
import { said } from "../../schemas/frenchMessages.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An endpoint as every webhooks procedure shows it: never its secret (only create and roll-secret answer that, once). */
export const endpointSchema = z.object({
  id: z.string().describe("Endpoint id, we_…"),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  status: z.enum(["enabled", "disabled"]),
  disabledAt: z.string().nullable().describe("ISO 8601 UTC, when it was disabled"),
  disabledReason: z.string().nullable().describe("Why: it answered 410 Gone, it failed for the whole give-up window (24 h) in a row, or the workspace disabled it"),
  failingSince: z.string().nullable().describe("The first failure of the current run of failed deliveries; null after a success"),
  previousSecretExpiresAt: z.string().nullable().describe("Until then, after a roll, the previous secret signs too (a second v1 signature)"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EndpointView = z.infer<typeof endpointSchema>;

/** The answers that carry the signing secret: creation and roll-secret. */
export const endpointWithSecretSchema = endpointSchema.extend({
  secret: z.string().describe("The signing secret (whsec_…): shown this once, store it now"),
});

export function toEndpointView(e: StoredEndpoint, now: number): EndpointView {
  return {
    id: e.id,
    url: e.url,
    events: e.events as EndpointView["events"],
    description: e.description,
    status: e.disabledAt === null ? "enabled" : "disabled",
    disabledAt: iso(e.disabledAt),
    disabledReason: e.disabledReason,
    failingSince: iso(e.failingSince),
    previousSecretExpiresAt: e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now ? iso(e.previousSecretExpiresAt) : null,
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt)!,
  };
}

export const deliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string().describe("The event's id, msg_…: the webhook-id header of every attempt"),
  type: z.enum([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE]),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable().describe("The last attempt's HTTP status; null when none came (refused, timed out)"),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable().describe("Why the last attempt failed"),
  responseBody: z.string().nullable().describe("The first 1 KiB of the last answer's body"),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable().describe("When it is tried next, while pending"),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeliveryView = z.infer<typeof deliverySchema>;

export function toDeliveryView(d: ListedDelivery): DeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.type as DeliveryView["type"],
    status: d.status as DeliveryView["status"],
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    latencyMs: d.latencyMs,
    error: d.error,
    responseBody: d.responseBody,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: d.status === "pending" ? iso(d.nextAttemptAt) : null,
    deliveredAt: iso(d.deliveredAt),
    createdAt: iso(d.createdAt)!,
  };
}

export const webhookId = idText(requiredOr(said("must be text: an endpoint id such as we_0123456789abcdef", "doit être du texte : un id de point de terminaison comme we_0123456789abcdef"))).describe("The endpoint's id (we_…)");

/** The workspace's endpoint, or 404 webhook_not_found (another workspace's is not found either). */
export async function workspaceEndpoint(store: WebhookStore, id: string, workspaceId: string): Promise<StoredEndpoint> {
  return (await store.find(id, workspaceId)) ?? webhookNotFound(id);
}

/** 404 webhook_not_found, for an id the workspace has no endpoint by. */
export function webhookNotFound(id: string): never {
  throw new CodedError("webhook_not_found", `No webhook endpoint with the id ${JSON.stringify(id)} exists in this workspace.`);
}
