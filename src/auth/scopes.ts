import { z } from "zod";

/** Every scope a key can hold; a key created with none named holds them all. */
export const SCOPES = ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

/** What a browser-exposed embed key (one with an origins list) may ever do, whatever it was given. */
export const EMBED_SCOPES: readonly Scope[] = ["brokers:read", "reviews:read", "quotes:write", "leads:write"];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "brokers:read": "Search brokers, read a broker's profile, the embed broker list and the MCP directory",
  "reviews:read": "Read a broker's published reviews",
  "quotes:write": "Request quotes and compare policies",
  "leads:write": "Create leads in the key's workspace",
  "leads:read": "List the leads of the key's workspace",
};
