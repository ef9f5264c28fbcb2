import { CodedError } from "../../schemas/errorCodes.ts";
import { DEFAULT_KEY_RATE_LIMIT } from "../../auth/keyVocabulary.ts";
import type { CreatedKey } from "../../storage/stores/keyStore.ts";
import { createOnce } from "../idempotency.ts";
import { invalidInput } from "../quotes/invalidInput.ts";
import { scopedProcedure } from "../trpc.ts";
import { createdKeySchema, createKeyInput } from "./createKey.schema.ts";
import { toKeyView } from "./keyView.ts";
import { assertCanGrant, assertCanGrantRate, rateLimitCeilingFor, refusalError } from "./workspaceKey.ts";
import { said } from "../../schemas/frenchMessages.ts";

export { createKeyInput, createdKeySchema as createKeyOutput };

/**
 * Makes a key in the caller's workspace and answers the full key, once: within the caller's own
 * scopes and rate limit, the operator's ceiling, and the workspace's maximum of live keys.
 */
export const createKey = scopedProcedure("keys:manage")
  .meta({ idempotent: true })
  .input(createKeyInput)
  .output(createdKeySchema)
  // The answer holds the new key: kept for replays only sealed under the caller's key (see createOnce).
  .mutation(({ ctx, input, path }) => createOnce(ctx, path, input, async (claim) => {
    const now = ctx.services.now();
    assertCanGrant(ctx.principal.scopes, input.scopes);
    const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
    if (expiresAt !== null && expiresAt <= now) throw invalidInput([{ path: ["expiresAt"], message: said("must be in the future", "doit être dans le futur") }]);
    const { keys, keyLimits } = ctx.services;
    const ceiling = rateLimitCeilingFor(ctx.principal, keyLimits);
    // Unnamed, the default limit, or the caller's own when that is lower (it cannot give more).
    const rateLimitPerMinute = input.rateLimitPerMinute ?? Math.min(DEFAULT_KEY_RATE_LIMIT, ceiling);
    assertCanGrantRate(rateLimitPerMinute, ceiling, ctx.principal.rateLimitPerMinute);
    const workspace = await keys.workspaceById(ctx.principal.workspaceId);
    // Nothing deletes a workspace: a key without one is our data's fault (500, logged), not the caller's.
    if (!workspace) throw new CodedError("internal_error", "The key's workspace no longer exists.");
    const answerOf = (created: CreatedKey) => ({ key: created.key, data: toKeyView(created.record, now) });
    const made = await keys.createBounded(
      workspace,
      { name: input.name, scopes: input.scopes, rateLimitPerMinute, expiresAt, origins: input.origins ?? null },
      now,
      keyLimits.maxKeysPerWorkspace,
      claim && ((created) => claim.recordOf(answerOf(created))),
    );
    if ("refused" in made) throw refusalError(made, keyLimits);
    return "held" in made ? claim!.answerFrom(made.held) : answerOf(made);
  }, { sealed: true }));
