import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { keyStatus } from "../../auth/keyStatus.ts";
import { ROLL_GRACE_MS, ROLL_GRACES } from "../../auth/keyVocabulary.ts";
import type { Scope } from "../../auth/scopes.ts";
import { scopedProcedure } from "../trpc.ts";
import { keyId, keySchema } from "./keySchemas.ts";
import { toKeyView } from "./keyView.ts";
import { assertCanGrant, workspaceKey } from "./workspaceKey.ts";


export const rollKeyInput = z.object({
  keyId,
  grace: z
    .enum(ROLL_GRACES, { error: `must be one of ${ROLL_GRACES.join(", ")}` })
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
 * (an earlier expiry it already had is kept).
 */
export const rollKey = scopedProcedure("keys:manage")
  .input(rollKeyInput)
  .output(rollKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { keys } = ctx.services;
    const now = ctx.services.now();
    const old = await workspaceKey(keys, input.keyId, ctx.principal.workspaceId);
    if (keyStatus(old, now) !== "active") {
      throw new TRPCError({ code: "CONFLICT", message: `This key is ${keyStatus(old, now)}: only an active key can be rolled. Create a new key instead.` });
    }
    assertCanGrant(ctx.principal.scopes, old.scopes);
    const workspace = await keys.workspaceById(old.workspaceId);
    if (!workspace) throw new TRPCError({ code: "NOT_FOUND", message: "This workspace no longer exists." });
    const grace = ROLL_GRACE_MS[input.grace];
    const { key, record } = await keys.createIn(
      workspace,
      { name: old.name, scopes: old.scopes as Scope[], rateLimitPerMinute: old.rateLimitPerMinute, expiresAt: old.expiresAt, origins: old.origins },
      now,
    );
    if (grace === 0) await keys.revoke(old.id, now);
    else await keys.expireBy(old.id, now + grace);
    return { key, data: toKeyView(record, now), previous: toKeyView(await workspaceKey(keys, old.id, old.workspaceId), now) };
  });
