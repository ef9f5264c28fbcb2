import { TRPCError } from "@trpc/server";
import { invalidInput } from "../quotes/invalidInput.ts";
import { scopedProcedure } from "../trpc.ts";
import { createdKeySchema, createKeyInput } from "./keySchemas.ts";
import { toKeyView } from "./keyView.ts";
import { assertCanGrant } from "./workspaceKey.ts";

export { createKeyInput, createdKeySchema as createKeyOutput };

/** Makes a key in the caller's workspace (within the caller's own scopes) and answers the full key, once. */
export const createKey = scopedProcedure("keys:manage")
  .input(createKeyInput)
  .output(createdKeySchema)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.services.now();
    assertCanGrant(ctx.principal.scopes, input.scopes);
    const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
    if (expiresAt !== null && expiresAt <= now) throw invalidInput([{ path: ["expiresAt"], message: "must be in the future" }]);
    const workspace = await ctx.services.keys.workspaceById(ctx.principal.workspaceId);
    if (!workspace) throw new TRPCError({ code: "NOT_FOUND", message: "This workspace no longer exists." });
    const { key, record } = await ctx.services.keys.createIn(
      workspace,
      { name: input.name, scopes: input.scopes, rateLimitPerMinute: input.rateLimitPerMinute, expiresAt, origins: input.origins ?? null },
      now,
    );
    return { key, data: toKeyView(record, now) };
  });
