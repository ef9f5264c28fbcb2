import { z } from "zod";
import { EMBED_SCOPES, scopeSchema } from "../../auth/scopes.ts";
import { DEFAULT_KEY_RATE_LIMIT, MAX_KEY_NAME_LENGTH, MAX_KEY_RATE_LIMIT, MAX_ORIGINS } from "../../auth/keyVocabulary.ts";
import { normalizeOrigin } from "../../domain/origin.ts";
import { objectExpected, requiredOr } from "../../schemas/fieldErrors.ts";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { withoutControls } from "../../schemas/plainText.ts";
import { keySchema } from "./keyView.ts";
import { french, said } from "../../schemas/frenchMessages.ts";

/** One browser origin, normalised (https://www.example.ca), as keys.create and keys.update take it. */
export const origin = z.string({ error: said("must be text: an origin such as https://www.example.ca", "doit être du texte : une origine comme https://www.example.ca") }).transform((value, ctx) => {
  const normalized = normalizeOrigin(value);
  if (!normalized) {
    const quoted = JSON.stringify(value.slice(0, 100));
    ctx.addIssue({
      code: "custom",
      message: `${quoted} is not an origin: write scheme and host only, e.g. https://www.example.ca`,
      params: french(`${quoted} n’est pas une origine : écrivez seulement le schéma et l’hôte, p. ex. https://www.example.ca`),
    });
    return z.NEVER;
  }
  return normalized;
});

/** What a key is: its settings, never its secret (what keys.create takes). */
export const keySettingsInput = {
  name: withoutControls(
    z
      .string({ error: requiredOr(said("must be text: a name to recognise the key by", "doit être du texte : un nom pour reconnaître la clé")) })
      .trim()
      .min(1, { error: said("must not be empty: a name to recognise the key by", "ne doit pas être vide : un nom pour reconnaître la clé") })
      .max(MAX_KEY_NAME_LENGTH, { error: said(`must be at most ${MAX_KEY_NAME_LENGTH} characters`, `doit compter au plus ${MAX_KEY_NAME_LENGTH} caractères`) }),
  ).describe("A name to recognise the key by, e.g. 'blog widget' (one line, no control characters)"),
  scopes: z
    .array(scopeSchema, { error: said("must be a list of scopes", "doit être une liste de portées") })
    .min(1, { error: said("must name at least one scope", "doit nommer au moins une portée") })
    .transform((scopes) => [...new Set(scopes)])
    .describe("What the key may do; keys:manage only when named"),
  rateLimitPerMinute: wholeNumberParam(1, MAX_KEY_RATE_LIMIT)
    .optional()
    .describe(`Requests per minute (default ${DEFAULT_KEY_RATE_LIMIT}, or the creating key's own limit when lower); at most the creating key's own and the server's ceiling`),
  expiresAt: z
    .iso.datetime({ offset: true, error: said("must be an ISO 8601 date and time, e.g. 2027-01-31T00:00:00Z", "doit être une date et une heure ISO 8601, p. ex. 2027-01-31T00:00:00Z") })
    .nullish()
    .describe("When the key stops working (ISO 8601); absent or null: never"),
  origins: z
    .array(origin, { error: said("must be a list of origins", "doit être une liste d’origines") })
    .max(MAX_ORIGINS, { error: said(`must list at most ${MAX_ORIGINS} origins`, `doit compter au plus ${MAX_ORIGINS} origines`) })
    .nullish()
    .describe("Browser origins; a non-empty list makes it an embed key that works only on /api/v1/embed/* from them"),
};

export const createKeyInput = z
  .strictObject(keySettingsInput, { error: objectExpected("a JSON object {name, scopes, rateLimitPerMinute?, expiresAt?, origins?}", "un objet JSON {name, scopes, rateLimitPerMinute?, expiresAt?, origins?}") })
  .superRefine((input, ctx) => {
    if (input.origins && input.origins.length > 0) {
      const outside = input.scopes.filter((s) => !EMBED_SCOPES.includes(s));
      if (outside.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["scopes"],
          message: `an embed key (one with origins) can only hold ${EMBED_SCOPES.join(", ")}; remove ${outside.join(", ")}`,
          params: french(`une clé d’intégration (avec des origines) ne peut détenir que ${EMBED_SCOPES.join(", ")} ; retirez ${outside.join(", ")}`),
        });
      }
    }
  });
export type CreateKeyInput = z.infer<typeof createKeyInput>;

/** The only answer that ever carries a full key: the one that made it. */
export const createdKeySchema = z.object({
  key: z.string().describe("The full key: shown this once, store it now"),
  data: keySchema,
});
