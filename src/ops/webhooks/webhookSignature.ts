import { Webhook } from "standardwebhooks";

/**
 * The Standard Webhooks headers of one attempt (https://www.standardwebhooks.com), signed with
 * the standardwebhooks library, the one receivers verify with: `webhook-id` (the event's id,
 * the same at every attempt, for the receiver's deduplication), `webhook-timestamp` (seconds)
 * and `webhook-signature`, `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, once per secret
 * that signs: during a roll's overlap the new secret's and the previous one's, space-separated,
 * so a receiver verifying with either accepts it.
 */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" "),
  };
}
