import { TRPCError } from "@trpc/server";
import type { KeyListing } from "../../storage/keyStore.ts";
import type { KeyStorePort } from "../../storage/ports.ts";

/** A key of the caller's workspace; another workspace's key gets the answer an unknown id gets. */
export async function workspaceKey(keys: Pick<KeyStorePort, "findIn">, id: string, workspaceId: string): Promise<KeyListing> {
  const key = await keys.findIn(id, workspaceId);
  if (!key) throw new TRPCError({ code: "NOT_FOUND", message: `No key with the id ${JSON.stringify(id)} exists in this workspace.` });
  return key;
}

/** A caller can only give scopes it holds itself: a keys:manage key cannot mint a wider key than its own. */
export function assertCanGrant(held: ReadonlySet<string>, scopes: readonly string[]): void {
  const beyond = scopes.filter((s) => !held.has(s));
  if (beyond.length > 0) {
    throw new TRPCError({ code: "FORBIDDEN", message: `This key cannot grant ${beyond.join(", ")}: a key can only give scopes it holds itself.` });
  }
}
