import { z } from "zod";

import { SCOPES, type Scope } from "./keyVocabulary.ts";

export { DEFAULT_SCOPES, defaultScopesFor, effectiveScopes, EMBED_SCOPES, OPERATOR_SCOPES, SCOPES, type Scope } from "./keyVocabulary.ts";
export const scopeSchema = z.enum(SCOPES);

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "brokers:read": "Search brokers, read a broker's profile, the embed broker list and the MCP directory",
  "reviews:read": "Read a broker's published reviews",
  "quotes:write": "Request quotes and compare policies",
  "leads:write": "Create leads in the key's workspace and change their status",
  "leads:read": "List, read and export (CSV) the leads of the key's workspace",
  "keys:manage": "List, create, revoke and roll the workspace's API keys and read their usage (never granted implicitly)",
  "webhooks:manage": "Register, change, test and remove the workspace's webhook endpoints and read their deliveries (never granted implicitly)",
  "directory:write": "Create, edit, publish and unpublish brokers, moderate their reviews and read their audit history (never granted implicitly; only the operator's CLI grants it)",
};
