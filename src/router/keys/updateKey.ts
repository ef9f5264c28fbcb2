import { z } from "zod";
import { MAX_ORIGINS } from "../../auth/keyVocabulary.ts";
import { keyStatus } from "../../auth/keyStatus.ts";
import { CodedError } from "../../schemas/errorCodes.ts";
import type { KeyChange } from "../../storage/stores/keyStore.ts";
import { objectExpected } from "../../schemas/fieldErrors.ts";
import { invalidInput } from "../quotes/invalidInput.ts";
import { scopedProcedure } from "../trpc.ts";
import { keySettingsInput, origin } from "./createKey.schema.ts";
import { keyId, keySchema, toKeyView } from "./keyView.ts";
import { assertCanGrant, assertCanGrantRate, rateLimitCeilingFor, workspaceKey } from "./workspaceKey.ts";
import { said } from "../../schemas/frenchMessages.ts";

export const updateKeyInput = z
  .strictObject(
    {
      keyId,
      name: keySettingsInput.name.optional(),
      rateLimitPerMinute: keySettingsInput.rateLimitPerMinute.describe("Requests per minute; raising it is bounded as at creation (the caller's own limit and the server's ceiling)"),
      origins: z
        .array(origin, { error: said("must be a list of origins", "doit être une liste d’origines") })
        .min(1, { error: said("must list at least one origin: an embed key keeps at least one (revoke it to stop it)", "doit compter au moins une origine : une clé d’intégration en garde au moins une (révoquez-la pour l’arrêter)") })
        .max(MAX_ORIGINS, { error: said(`must list at most ${MAX_ORIGINS} origins`, `doit compter au plus ${MAX_ORIGINS} origines`) })
        .optional()
        .describe("An embed key's browser origins, replacing the list; a server key has none"),
    },
    { error: objectExpected("a JSON object {name?, rateLimitPerMinute?, origins?}", "un objet JSON {name?, rateLimitPerMinute?, origins?}") },
  )
  .refine((input) => input.name !== undefined || input.rateLimitPerMinute !== undefined || input.origins !== undefined, {
    error: said("name at least one of name, rateLimitPerMinute or origins to change", "nommez au moins un champ à changer parmi name, rateLimitPerMinute ou origins"),
  });

/**
 * Changes a live key's name, origins or rate limit without rolling it: the key itself keeps
 * working, and admission sees the change at the next request. Bounded as a roll is: the caller
 * must hold the key's scopes, and raising the limit is bounded as at creation (its own limit,
 * the server's ceiling); lowering it always may. Origins stay an embed key's own: a server key
 * cannot gain them (that would shrink it to the embed scopes unseen) nor an embed key lose
 * them all (that would turn a public key into a server key).
 */
export const updateKey = scopedProcedure("keys:manage")
  .input(updateKeyInput)
  .output(keySchema)
  .mutation(async ({ ctx, input }) => {
    const { keys, keyLimits } = ctx.services;
    const now = ctx.services.now();
    const old = await workspaceKey(keys, input.keyId, ctx.principal.workspaceId);
    if (keyStatus(old, now) !== "active") {
      throw new CodedError("key_not_active", `This key is ${keyStatus(old, now)}: only an active key can be changed. Create a new key instead.`);
    }
    if (input.origins && !old.origins) {
      throw invalidInput([{ path: ["origins"], message: said("a server key has no origins: create an embed key (with origins) for browsers instead", "une clé de serveur n’a pas d’origines : créez plutôt une clé d’intégration (avec des origines) pour les navigateurs") }]);
    }
    assertCanGrant(ctx.principal.scopes, old.scopes);
    const rate = input.rateLimitPerMinute;
    if (rate !== undefined && rate > old.rateLimitPerMinute) {
      assertCanGrantRate(rate, rateLimitCeilingFor(ctx.principal, keyLimits), ctx.principal.rateLimitPerMinute);
    }
    // Only what was named: an absent field keeps the key's value.
    const change: KeyChange = {};
    if (input.name !== undefined) change.name = input.name;
    if (input.origins !== undefined) change.origins = input.origins;
    if (rate !== undefined) change.rateLimitPerMinute = rate;
    const updated = await keys.update(old.id, old.workspaceId, change, now);
    // Revoked or expired between the read and the write: told as if it had been so before.
    if (!updated) throw new CodedError("key_not_active", "This key stopped being active just now: only an active key can be changed.");
    return toKeyView(updated, now);
  });
