/**
 * What a workspace can subscribe an endpoint to (issue 28). Each event's `data` is the resource
 * as the REST API answers it: a lead as POST /api/v1/leads does, a quote as POST
 * /api/v1/embed/quotes does. `webhook.test` is sent only by "Send test event" to one endpoint.
 */
export const WEBHOOK_EVENT_TYPES = ["lead.created", "lead.status_changed", "quote.created"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";

/** How many endpoints one workspace may register (each event is sent to every one that wants it). */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;
export const MAX_ENDPOINT_URL_LENGTH = 2_048;
export const MAX_ENDPOINT_DESCRIPTION_LENGTH = 200;

/** A new signing secret: `whsec_` and 24 random bytes in base64, the form the standardwebhooks library reads. */
export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
}
