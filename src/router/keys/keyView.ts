import { keyStatus } from "../../auth/keyStatus.ts";
import type { Scope } from "../../auth/scopes.ts";
import type { KeyListing } from "../../storage/stores/keyStore.ts";
import type { KeyView } from "./keySchemas.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toKeyView(key: KeyListing, now: number): KeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.displayPrefix,
    kind: key.origins ? "embed" : "server",
    scopes: key.scopes as Scope[],
    origins: key.origins,
    rateLimitPerMinute: key.rateLimitPerMinute,
    status: keyStatus(key, now),
    createdAt: new Date(key.createdAt).toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    replacedBy: key.replacedBy,
  };
}
