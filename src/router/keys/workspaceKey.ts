import { CodedError } from "../../schemas/errorCodes.ts";
import type { Principal } from "../../auth/admitRequest.ts";
import { OPERATOR_SCOPES, type KeyLimits } from "../../auth/keyVocabulary.ts";
import type { KeyListing, KeyStore, KeyWriteRefusal } from "../../storage/stores/keyStore.ts";

/** A key of the caller's workspace; another workspace's key gets the answer an unknown id gets. */
export async function workspaceKey(keys: Pick<KeyStore, "findIn">, id: string, workspaceId: string): Promise<KeyListing> {
  const key = await keys.findIn(id, workspaceId);
  if (!key) throw new CodedError("key_not_found", `No key with the id ${JSON.stringify(id)} exists in this workspace.`);
  return key;
}

/** A caller can only give scopes it holds itself: a keys:manage key cannot mint a wider key than its own. */
export function assertCanGrant(held: ReadonlySet<string>, scopes: readonly string[]): void {
  const operators = scopes.filter((s) => (OPERATOR_SCOPES as readonly string[]).includes(s));
  if (operators.length > 0) {
    throw new CodedError("scope_not_grantable", `${operators.join(", ")} cannot be granted through the API or the console: only the operator's CLI gives it (broker-directory keys create --scopes ${operators.join(",")}).`);
  }
  const beyond = scopes.filter((s) => !held.has(s));
  if (beyond.length > 0) {
    throw new CodedError("scope_not_grantable", `This key cannot grant ${beyond.join(", ")}: a key can only give scopes it holds itself.`);
  }
}

/**
 * The highest rate limit a caller may give a new key: the operator's ceiling, and never more
 * than the caller's own key has (a 5/min key cannot mint a 1,000,000/min one). A console
 * session has no limit of its own: the ceiling alone bounds it.
 */
export function rateLimitCeilingFor(principal: Pick<Principal, "rateLimitPerMinute">, limits: KeyLimits): number {
  return Math.min(limits.rateLimitCeiling, principal.rateLimitPerMinute ?? limits.rateLimitCeiling);
}

/** 403 when `requested` is above what the caller may give (as for a scope it does not hold). */
export function assertCanGrantRate(requested: number, ceiling: number, own: number | undefined): void {
  if (requested <= ceiling) return;
  const why = own !== undefined && own <= ceiling ? `a key can only give a rate limit up to its own (${own}/min)` : `the highest this server lets a workspace give itself is ${ceiling}/min; ask its operator for more`;
  throw new CodedError("rate_limit_not_grantable", `This key cannot grant ${requested} requests per minute: ${why}.`);
}

/** A store's refusal as the answer: both are conflicts with the workspace's state (409), cleared by revoking a key or rolling the newest one. */
export function refusalError(refusal: KeyWriteRefusal, limits: KeyLimits, keyId?: string): CodedError {
  if (refusal.refused === "workspace-full") {
    return new CodedError(
      "key_limit_reached",
      `This workspace already has ${refusal.live} live keys, its maximum of ${limits.maxKeysPerWorkspace} (keys in a roll's grace count): revoke one first${keyId ? ', or roll with grace "now"' : ""}.`,
    );
  }
  return new CodedError("key_already_rolled", `The key ${JSON.stringify(keyId ?? "")} is no longer live or was rolled already (perhaps just now): roll its successor instead.`);
}
