import { z } from "zod";
import { checkEndpointUrl } from "../../domain/webhooks/endpointAddress.ts";
import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH, WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/webhookEvents.ts";
import { requiredOr } from "../../schemas/fieldErrors.ts";
import { withoutControls } from "../../schemas/plainText.ts";
import { invalidInput } from "../quotes/invalidInput.ts";
import { said } from "../../schemas/frenchMessages.ts";

/** The fields a workspace writes of an endpoint, declared once for create and PATCH. */
export const endpointFields = {
  url: z
    .string({ error: requiredOr(said("must be text: an https:// URL", "doit être du texte : une URL https://")) })
    .trim()
    .max(MAX_ENDPOINT_URL_LENGTH, { error: said(`must be at most ${MAX_ENDPOINT_URL_LENGTH} characters`, `doit compter au plus ${MAX_ENDPOINT_URL_LENGTH} caractères`) })
    .describe("Where events are sent: an https:// URL (http:// only to this machine's loopback, when the operator allows it)"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: said(`must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`, `doit être l’une des valeurs ${WEBHOOK_EVENT_TYPES.join(", ")}`) }), { error: said("must be a list of event types", "doit être une liste de types d’événements") })
    .min(1, { error: said(`must name at least one of ${WEBHOOK_EVENT_TYPES.join(", ")}`, `doit nommer au moins l’une des valeurs ${WEBHOOK_EVENT_TYPES.join(", ")}`) })
    .transform((events) => [...new Set(events)])
    .describe(`The events it receives: ${WEBHOOK_EVENT_TYPES.join(", ")}`),
  description: withoutControls(
    z.string({ error: said("must be text", "doit être du texte") }).trim().max(MAX_ENDPOINT_DESCRIPTION_LENGTH, { error: said(`must be at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters`, `doit compter au plus ${MAX_ENDPOINT_DESCRIPTION_LENGTH} caractères`) }),
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
  if ("problem" in checked) throw invalidInput([{ path: ["url"], message: checked.problem, fr: checked.fr }]);
  return checked.url;
}
