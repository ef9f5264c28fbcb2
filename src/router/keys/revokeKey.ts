import { z } from "zod";
import { scopedProcedure } from "../trpc.ts";
import { keyId, keySchema, toKeyView } from "./keyView.ts";
import { workspaceKey } from "./workspaceKey.ts";

export const revokeKeyInput = z.object({ keyId });
export const revokeKeyOutput = keySchema;

/** Revokes a key of the workspace at once (the next request with it is a 401); twice is fine. */
export const revokeKey = scopedProcedure("keys:manage")
  .input(revokeKeyInput)
  .output(revokeKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { keys } = ctx.services;
    const now = ctx.services.now();
    await workspaceKey(keys, input.keyId, ctx.principal.workspaceId);
    await keys.revoke(input.keyId, now);
    return toKeyView(await workspaceKey(keys, input.keyId, ctx.principal.workspaceId), now);
  });
