/**
 * The words and bounds of API keys, free of any library so the console bundle can share them
 * with the server (src/auth/scopes.ts builds the zod schema from these).
 */

/**
 * Every scope a key can hold. `keys:manage` (list, create, revoke and roll the workspace's keys,
 * read its usage) and `webhooks:manage` (register the endpoints the workspace's events are sent to,
 * issue 28) and `directory:write` (the directory's write API, issue 27) are never implicit: a
 * key created with no scopes named gets DEFAULT_SCOPES.
 */
export const SCOPES = ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read", "keys:manage", "webhooks:manage", "directory:write"] as const;
export type Scope = (typeof SCOPES)[number];

/** What a key created without naming scopes holds: everything except keys:manage, webhooks:manage and directory:write. */
export const DEFAULT_SCOPES: readonly Scope[] = ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"];

/**
 * Scopes only the operator gives (`broker-directory keys create --scopes directory:write`): a
 * workspace can never grant them through the keys API or the console, whatever its key holds,
 * and a console session does not act with them. Editing the directory is the operator's, not
 * a partner's.
 */
export const OPERATOR_SCOPES: readonly Scope[] = ["directory:write"];

/** What a browser-exposed embed key (one with an origins list) may ever do, whatever it was given. */
export const EMBED_SCOPES: readonly Scope[] = ["brokers:read", "reviews:read", "quotes:write", "leads:write"];

const isEmbed = (origins: readonly string[] | null | undefined) => origins !== null && origins !== undefined && origins.length > 0;

/**
 * The scopes a key gets when none are named, for the CLI, the API and the console alike:
 * DEFAULT_SCOPES, less what an embed key may never use (leads:read), so an embed key is never
 * stored or shown with a scope it cannot exercise.
 */
export function defaultScopesFor(origins: readonly string[] | null | undefined): Scope[] {
  return DEFAULT_SCOPES.filter((scope) => !isEmbed(origins) || EMBED_SCOPES.includes(scope));
}

/**
 * What a key can really do: an embed key's scopes beyond EMBED_SCOPES are never honoured (keys
 * made before defaultScopesFor may hold leads:read), so listings show them as admission reads them.
 */
export function effectiveScopes<S extends string>(scopes: readonly S[], origins: readonly string[] | null | undefined): S[] {
  return scopes.filter((scope) => !isEmbed(origins) || (EMBED_SCOPES as readonly string[]).includes(scope));
}

export const DEFAULT_KEY_RATE_LIMIT = 100;
export const MAX_KEY_RATE_LIMIT = 1_000_000;
export const MAX_KEY_NAME_LENGTH = 100;

/**
 * What a workspace may give itself through the API and the console (the operator's CLI is
 * bound only by the maximum of keys): see the manual's API page (src/adapters/docs/manual/api.md),
 * "API keys, workspaces, scopes and rate limits". Set by MAX_KEYS_PER_WORKSPACE and KEY_RATE_LIMIT_CEILING.
 */
export interface KeyLimits {
  /** Live keys (neither revoked nor expired; a rolled key in its grace counts) a workspace may hold. */
  maxKeysPerWorkspace: number;
  /** The highest requests per minute a key made through the API or the console may get. */
  rateLimitCeiling: number;
}
export const DEFAULT_KEY_LIMITS: KeyLimits = { maxKeysPerWorkspace: 100, rateLimitCeiling: 10_000 };
export const MAX_ORIGINS = 20;

/** How long an old key keeps working after a roll. */
export const ROLL_GRACE_MS = { now: 0, "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type RollGrace = keyof typeof ROLL_GRACE_MS;
export const ROLL_GRACES = Object.keys(ROLL_GRACE_MS) as RollGrace[];
