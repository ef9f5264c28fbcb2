import { z } from "zod";
import { EMBED_SCOPES, scopeSchema } from "../../auth/scopes.ts";
import { DEFAULT_KEY_RATE_LIMIT, MAX_KEY_NAME_LENGTH, MAX_KEY_RATE_LIMIT, MAX_ORIGINS } from "../../auth/keyVocabulary.ts";
import { normalizeOrigin } from "../../domain/origin.ts";
import { objectExpected, requiredOr } from "../../schemas/fieldErrors.ts";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { withoutControls } from "../../schemas/plainText.ts";
import { keySchema } from "./keyView.ts";

/** One browser origin, normalised (https://www.example.ca), as keys.create and keys.update take it. */
export const origin = z.string({ error: "must be text: an origin such as https://www.example.ca" }).transform((value, ctx) => {
  const normalized = normalizeOrigin(value);
  if (!normalized) {
    ctx.addIssue({ code: "custom", message: `${JSON.stringify(value.slice(0, 100))} is not an origin: write scheme and host only, e.g. https://www.example.ca` });
    return z.NEVER;
  }
  return normalized;
});

/** What a key is: its settings, never its secret (what keys.create takes). */
export const keySettingsInput = {
  name: withoutControls(
    z
      .string({ error: requiredOr("must be text: a name to recognise the key by") })
      .trim()
      .min(1, { error: "must not be empty: a name to recognise the key by" })
      .max(MAX_KEY_NAME_LENGTH, { error: `must be at most ${MAX_KEY_NAME_LENGTH} characters` }),
  ).describe("A name to recognise the key by, e.g. 'blog widget' (one line, no control characters)"),
  scopes: z
    .array(scopeSchema, { error: "must be a list of scopes" })
    .min(1, { error: "must name at least one scope" })
    .transform((scopes) => [...new Set(scopes)])
    .describe("What the key may do; keys:manage only when named"),
  rateLimitPerMinute: wholeNumberParam(1, MAX_KEY_RATE_LIMIT)
    .optional()
    .describe(`Requests per minute (default ${DEFAULT_KEY_RATE_LIMIT}, or the creating key's own limit when lower); at most the creating key's own and the server's ceiling`),
  expiresAt: z
    .iso.datetime({ offset: true, error: "must be an ISO 8601 date and time, e.g. 2027-01-31T00:00:00Z" })
    .nullish()
    .describe("When the key stops working (ISO 8601); absent or null: never"),
  origins: z
    .array(origin, { error: "must be a list of origins" })
    .max(MAX_ORIGINS, { error: `must list at most ${MAX_ORIGINS} origins` })
    .nullish()
    .describe("Browser origins; a non-empty list makes it an embed key that works only on /api/v1/embed/* from them"),
};

export const createKeyInput = z
  .strictObject(keySettingsInput, { error: objectExpected("a JSON object {name, scopes, rateLimitPerMinute?, expiresAt?, origins?}") })
  .superRefine((input, ctx) => {
    if (input.origins && input.origins.length > 0) {
      const outside = input.scopes.filter((s) => !EMBED_SCOPES.includes(s));
      if (outside.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["scopes"],
          message: `an embed key (one with origins) can only hold ${EMBED_SCOPES.join(", ")}; remove ${outside.join(", ")}`,
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
