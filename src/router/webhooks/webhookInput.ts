import { z } from "zod";
import { checkEndpointUrl } from "../../domain/webhooks/endpointAddress.ts";
import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH, WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/webhookEvents.ts";
import { requiredOr } from "../../schemas/fieldErrors.ts";
import { withoutControls } from "../../schemas/plainText.ts";
import { invalidInput } from "../quotes/invalidInput.ts";

/** The fields a workspace writes of an endpoint, declared once for create and PATCH. */
export const endpointFields = {
  url: z
    .string({ error: requiredOr("must be text: an https:// URL") })
    .trim()
    .max(MAX_ENDPOINT_URL_LENGTH, { error: `must be at most ${MAX_ENDPOINT_URL_LENGTH} characters` })
    .describe("Where events are sent: an https:// URL (http:// only to this machine's loopback, when the operator allows it)"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }), { error: "must be a list of event types" })
    .min(1, { error: `must name at least one of ${WEBHOOK_EVENT_TYPES.join(", ")}` })
    .transform((events) => [...new Set(events)])
    .describe(`The events it receives: ${WEBHOOK_EVENT_TYPES.join(", ")}`),
  description: withoutControls(
    z.string({ error: "must be text" }).trim().max(MAX_ENDPOINT_DESCRIPTION_LENGTH, { error: `must be at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters` }),
  )
    .nullish()
    .describe("A note to recognise it by (one line)"),
};

/**
 * The URL as the server will send to it, or a 422 naming `url`: what registration can know from
 * the text alone (scheme, credentials, a literal address that is not public). Names are checked
 * again, resolved, at every attempt.
 */
export function endpointUrl(text: string, allowHttpLoopback: boolean): string {
  const checked = checkEndpointUrl(text, allowHttpLoopback);
  if ("problem" in checked) throw invalidInput([{ path: ["url"], message: checked.problem }]);
  return checked.url;
}
