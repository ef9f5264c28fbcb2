import { z } from "zod";
import { keyStatus } from "../../auth/keyStatus.ts";
import { effectiveScopes, scopeSchema, type Scope } from "../../auth/scopes.ts";
import { requiredOr } from "../../schemas/fieldErrors.ts";
import { idText } from "../../schemas/idText.ts";
import type { KeyListing } from "../../storage/stores/keyStore.ts";
import { said } from "../../schemas/frenchMessages.ts";

/** A key as every keys procedure shows it (never its secret), and the id that names it. */
export const keySchema = z.object({
  id: z.string().describe("Key id, key_…"),
  name: z.string(),
  prefix: z.string().describe("The key's first characters (brk_ and six more), to recognise it"),
  kind: z.enum(["server", "embed"]).describe("embed when it has origins"),
  scopes: z.array(scopeSchema).describe("What the key can do: for an embed key only the embed scopes it holds"),
  origins: z.array(z.string()).nullable(),
  rateLimitPerMinute: z.number().int(),
  status: z.enum(["active", "revoked", "expired"]),
  createdAt: z.string().describe("ISO 8601 UTC"),
  lastUsedAt: z.string().nullable().describe("ISO 8601 UTC, to the minute"),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  replacedBy: z.string().nullable().describe("The key that replaced this one in a roll (a key is rolled at most once), else null"),
});
export type KeyView = z.infer<typeof keySchema>;

export const keyId = idText(requiredOr(said("must be text: a key id such as key_0123456789abcdef", "doit être du texte : un id de clé comme key_0123456789abcdef"))).describe("The key's id (key_…), as listed; never the key itself");

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toKeyView(key: KeyListing, now: number): KeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.displayPrefix,
    kind: key.origins ? "embed" : "server",
    scopes: effectiveScopes(key.scopes as Scope[], key.origins),
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
