import { CodedError } from "../../schemas/errorCodes.ts";
import { z } from "zod";
import { keyStatus } from "../../auth/keyStatus.ts";
import { ROLL_GRACE_MS, ROLL_GRACES } from "../../auth/keyVocabulary.ts";
import { scopedProcedure } from "../trpc.ts";
import { keyId, keySchema, toKeyView } from "./keyView.ts";
import { assertCanGrant, assertCanGrantRate, refusalError, workspaceKey } from "./workspaceKey.ts";
import { said } from "../../schemas/frenchMessages.ts";

export const rollKeyInput = z.object({
  keyId,
  grace: z
    .enum(ROLL_GRACES, { error: said(`must be one of ${ROLL_GRACES.join(", ")}`, `doit être l’une des valeurs ${ROLL_GRACES.join(", ")}`) })
    .optional()
    .default("24h")
    .describe("How long the old key keeps working: now, 1h, 24h (default) or 7d"),
});
export const rollKeyOutput = z.object({
  key: z.string().describe("The new full key: shown this once"),
  data: keySchema.describe("The new key"),
  previous: keySchema.describe("The old key, now revoked or expiring at the end of the grace period"),
});

/**
 * Replaces a live key with a new one of the same settings (name, scopes, rate limit, origins,
 * expiry). The old one is revoked at once for grace "now", else expires when the grace ends
 * (an earlier expiry it already had is kept). A key is rolled at most once: rolling a key in its
 * grace (or two rolls at once) answers 409 naming what to roll instead, so a successor always
 * keeps the original expiry and one roll makes one successor.
 */
export const rollKey = scopedProcedure("keys:manage")
  .input(rollKeyInput)
  .output(rollKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { keys, keyLimits } = ctx.services;
    const now = ctx.services.now();
    const old = await workspaceKey(keys, input.keyId, ctx.principal.workspaceId);
    if (old.replacedBy !== null) {
      throw new CodedError("key_already_rolled", `This key was rolled already: ${old.replacedBy} replaced it. Roll ${old.replacedBy} instead.`);
    }
    if (keyStatus(old, now) !== "active") {
      throw new CodedError("key_not_active", `This key is ${keyStatus(old, now)}: only an active key can be rolled. Create a new key instead.`);
    }
    assertCanGrant(ctx.principal.scopes, old.scopes);
    // A roll copies a limit the workspace already holds (it raises nothing), so only the roller's own bounds it.
    assertCanGrantRate(old.rateLimitPerMinute, ctx.principal.rateLimitPerMinute ?? old.rateLimitPerMinute, ctx.principal.rateLimitPerMinute);
    const workspace = await keys.workspaceById(old.workspaceId);
    if (!workspace) throw new CodedError("internal_error", "The key's workspace no longer exists.");
    const rolled = await keys.roll(old.id, workspace, ROLL_GRACE_MS[input.grace], now, keyLimits.maxKeysPerWorkspace);
    if ("refused" in rolled) throw refusalError(rolled, keyLimits, old.id);
    return { key: rolled.key, data: toKeyView(rolled.record, now), previous: toKeyView(rolled.previous, now) };
  });
