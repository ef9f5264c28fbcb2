import { z } from "zod";
import { scopedProcedure } from "../trpc.ts";
import { keySchema, toKeyView } from "./keyView.ts";

export const listKeysInput = z.object({});
export const listKeysOutput = z.object({ data: z.array(keySchema).describe("The workspace's keys, newest first, revoked ones included") });

/** The caller's workspace's keys (never their secrets, never another workspace's). */
export const listKeys = scopedProcedure("keys:manage")
  .input(listKeysInput)
  .output(listKeysOutput)
  .query(async ({ ctx }) => {
    const now = ctx.services.now();
    return { data: (await ctx.services.keys.listIn(ctx.principal.workspaceId)).map((k) => toKeyView(k, now)) };
  });
