import { z } from "zod";

/**
 * Every scope a key can hold. `keys:manage` (list, create, revoke and roll the workspace's keys,
 * read its usage) is never implicit: a key created with no scopes named gets DEFAULT_SCOPES.
 */
export const SCOPES = ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read", "keys:manage"] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

/** What a key created without naming scopes holds: everything except keys:manage. */
export const DEFAULT_SCOPES: readonly Scope[] = ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"];

/** What a browser-exposed embed key (one with an origins list) may ever do, whatever it was given. */
export const EMBED_SCOPES: readonly Scope[] = ["brokers:read", "reviews:read", "quotes:write", "leads:write"];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "brokers:read": "Search brokers, read a broker's profile, the embed broker list and the MCP directory",
  "reviews:read": "Read a broker's published reviews",
  "quotes:write": "Request quotes and compare policies",
  "leads:write": "Create leads in the key's workspace and change their status",
  "leads:read": "List, read and export (CSV) the leads of the key's workspace",
  "keys:manage": "List, create, revoke and roll the workspace's API keys and read their usage (never granted implicitly)",
};
