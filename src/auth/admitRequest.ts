import { CodedError, type ErrorCode } from "../schemas/errorCodes.ts";
import { hashApiKey, looksLikeApiKey } from "./apiKeyFormat.ts";
import type { AuthFailureThrottle } from "./authFailureThrottle.ts";
import type { RateDecision, RateLimiter } from "./rateLimiter.ts";
import { effectiveScopes, type Scope } from "./scopes.ts";

/** Which door a request came through; embed keys may only use the embed one. The console admits by session, not here. */
export type Surface = "rest" | "embed" | "mcp" | "trpc" | "console";

export interface Principal {
  keyId: string;
  workspaceId: string;
  scopes: ReadonlySet<Scope>;
  /** Set for browser-exposed embed keys. */
  origins: readonly string[] | null;
  /**
   * The key's budget, for operations charged after admission (see chargeMore). Absent for a
   * caller no key's limit governs (a console session).
   */
  rateLimitPerMinute?: number;
}

export type Admission =
  | { ok: true; principal: Principal; rate: RateDecision }
  | { ok: false; error: CodedError; rate?: RateDecision };

/**
 * A stored key as admission reads it. Declared here, where it is read, so that auth (a floor
 * below storage) names no store: the key stores' records (StoredKey, src/storage/stores/keyStore.ts)
 * have these fields and more, and both dialects' key stores are a KeyLookup as they are (the
 * compiler holds them to it where the adapters hand Services to admit).
 */
export interface AdmissibleKey {
  readonly id: string;
  readonly workspaceId: string;
  readonly scopes: readonly string[];
  /** Non-null for a browser embed key. */
  readonly origins: readonly string[] | null;
  readonly rateLimitPerMinute: number;
  readonly revokedAt: number | null;
  readonly expiresAt: number | null;
}

/** What admission asks of the key store: the key by its hash (at once on a cache hit), and its last-used stamp. */
export interface KeyLookup {
  findByHash(hash: string): AdmissibleKey | undefined | Promise<AdmissibleKey | undefined>;
  recordUse(id: string, now: number): void;
}

export interface AdmissionDeps {
  keys: KeyLookup;
  rateLimiter: RateLimiter;
  /** Counts each key's admitted and rate-refused requests per day (O(1), in memory: UsageCounter). */
  usage?: { record(keyId: string, now: number, admitted: boolean): void };
  /** Slows failed-authentication floods per client address (when the adapter knows the address). */
  authFailures?: AuthFailureThrottle;
  now: () => number;
}

export interface RequestCredentials {
  authorization: string | null;
  origin: string | null;
  surface: Surface;
  /**
   * This server's own origin as the request reached it (PUBLIC_URL, else its Host): a page of
   * this server (/demo, /console) may use a server key, since its key never leaves this origin.
   */
  ownOrigin?: string;
  /**
   * Where the request came from: its clientAddress is the socket's peer address (behind a
   * reverse proxy: the proxy's), read only when authentication fails (a lookup per request
   * otherwise cost as much as the rate limit).
   */
  client?: { readonly clientAddress?: string };
}

const reject = (code: ErrorCode, message: string, rate?: RateDecision): Admission => ({
  ok: false,
  error: new CodedError(code, message),
  rate,
});

/**
 * The one gate every adapter passes a request through before it may call a procedure:
 * who is calling (the key), from where (embed keys and their origins), and how often
 * (the key's rate limit). Returns a value, never throws, so each transport can word the
 * refusal its own way (REST status + headers, MCP 401 challenge…). It answers at once when
 * the key store and the rate limiter do (a cached key, the in-process limiter: SQLite's store
 * always does): the REST adapter then hands a cached answer back without a promise in between;
 * callers that wait anyway `await` it.
 */
export function admit(deps: AdmissionDeps, credentials: RequestCredentials): Admission | Promise<Admission> {
  const admission = checkKey(deps, credentials);
  return admission instanceof Promise
    ? admission.then((settled) => throttleFailures(deps, credentials, settled))
    : throttleFailures(deps, credentials, admission);
}

function throttleFailures(deps: AdmissionDeps, credentials: RequestCredentials, admission: Admission): Admission {
  if (admission.ok || admission.error.code !== "UNAUTHORIZED" || !deps.authFailures) return admission;
  const clientAddress = credentials.client?.clientAddress;
  if (!clientAddress) return admission;
  const rate = deps.authFailures.recordFailure(clientAddress, deps.now());
  if (rate.allowed) return admission;
  return reject("too_many_auth_failures", `Too many failed authentication attempts from this address. Retry in ${rate.resetSeconds} s.`, rate);
}

/** The token of an `Authorization: Bearer …` header, or undefined when it is not one. */
export function bearerToken(authorization: string | null): string | undefined {
  return authorization === null ? undefined : /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)?.[1];
}

function checkKey(deps: AdmissionDeps, credentials: RequestCredentials): Admission | Promise<Admission> {
  const { authorization } = credentials;
  if (!authorization) {
    return reject("missing_api_key", "Missing API key. Send it in the header 'Authorization: Bearer brk_…'.");
  }
  const token = bearerToken(authorization);
  if (token === undefined) {
    return reject("malformed_authorization", "Malformed Authorization header. Expected 'Authorization: Bearer brk_…'.");
  }
  const stored = looksLikeApiKey(token) ? deps.keys.findByHash(hashApiKey(token)) : undefined;
  // A key cached in this process answers at once (always over SQLite); PostgreSQL is asked on
  // a miss. A database that cannot answer is a storage fault: 503 with Retry-After, as elsewhere.
  return stored instanceof Promise ? stored.then((found) => checkStored(deps, credentials, found), keyLookupFailed) : checkStored(deps, credentials, stored);
}

function keyLookupFailed(error: unknown): Admission {
  return { ok: false, error: new CodedError("database_unavailable", "The API key could not be checked.", error) };
}

function checkStored(deps: AdmissionDeps, credentials: RequestCredentials, stored: AdmissibleKey | undefined): Admission | Promise<Admission> {
  const { origin, surface } = credentials;
  if (!stored) return reject("invalid_api_key", "Invalid API key. Check that the key is complete and was not mistyped.");

  const now = deps.now();
  if (stored.revokedAt !== null) return reject("api_key_revoked", "This API key has been revoked. Create a new key.");
  if (stored.expiresAt !== null && stored.expiresAt <= now) {
    return reject("api_key_expired", `This API key expired at ${new Date(stored.expiresAt).toISOString()}. Create a new key.`);
  }

  if (stored.origins) {
    if (surface !== "embed") {
      return reject(
        "embed_key_not_allowed",
        "This is a browser embed key (it has an origins list): it only works on /api/v1/embed/* from its allowed origins. Use a server key here.",
      );
    }
    if (!origin) {
      return reject("origin_missing", "This embed key only works from a browser page on one of its allowed origins; the request had no Origin header.");
    }
    if (!stored.origins.includes(origin)) {
      return reject("origin_not_allowed", `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed for this key. Add it to the key's origins.`);
    }
  }

  // A server key sent by a web page is a key anyone can read from the page's source. MCP keeps
  // its own Origin rule (--mcp-allowed-origins), checked before admission.
  if (!stored.origins && origin && surface !== "mcp" && origin !== credentials.ownOrigin) {
    return reject(
      "server_key_in_browser",
      `This is a server key (it has no origins list), sent from the web page ${JSON.stringify(origin.slice(0, 200))}: anyone reading that page's source would have it. ` +
        "Keep it on your server; for a page, create an embed key with --origins (broker-directory keys create --workspace NAME --origins https://your-site.example) or use the console's \"Copy embed code\".",
    );
  }

  const rate = deps.rateLimiter.consume(stored.id, stored.rateLimitPerMinute, now);
  return rate instanceof Promise ? rate.then((decided) => counted(deps, stored, now, decided)) : counted(deps, stored, now, rate);
}

/** After the rate limit's decision: the usage count, the last-used stamp and the principal. */
function counted(deps: AdmissionDeps, stored: AdmissibleKey, now: number, rate: RateDecision): Admission {
  deps.usage?.record(stored.id, now, rate.allowed);
  if (!rate.allowed) return { ok: false, error: rateLimitedError(rate), rate };
  deps.keys.recordUse(stored.id, now);

  return { ok: true, principal: principalOf(stored), rate };
}

/**
 * A stored key's principal, built once per stored record: the key store hands out the same
 * record until any key changes anywhere (then a fresh one, so a new scope list or limit is
 * seen on the very next request). Principals are never modified, only read.
 */
const principals = new WeakMap<AdmissibleKey, Principal>();

function principalOf(stored: AdmissibleKey): Principal {
  let principal = principals.get(stored);
  if (principal === undefined) {
    // The one rule of what a key can really do, as listings show it.
    const scopes = effectiveScopes(stored.scopes as readonly Scope[], stored.origins);
    principal = Object.freeze({
      keyId: stored.id,
      workspaceId: stored.workspaceId,
      scopes: new Set(scopes),
      origins: stored.origins,
      rateLimitPerMinute: stored.rateLimitPerMinute,
    });
    principals.set(stored, principal);
  }
  return principal;
}

/**
 * Charges an admitted key for more work done within the same HTTP request: each further call
 * of a tRPC or JSON-RPC batch, or the extra units of a costly read. Admission counted one;
 * this counts `units` more, all or none, so batching never stretches a key's limit.
 */
export async function chargeMore(deps: AdmissionDeps, principal: Principal, units: number): Promise<RateDecision> {
  if (principal.rateLimitPerMinute === undefined) return { allowed: true, limit: 0, remaining: 0, resetSeconds: 1 };
  const now = deps.now();
  const rate = await deps.rateLimiter.consume(principal.keyId, principal.rateLimitPerMinute, now, units);
  // Usage counts what the rate limit counts: each unit, as if each were a request of its own.
  for (let i = 0; i < units; i++) deps.usage?.record(principal.keyId, now, rate.allowed);
  return rate;
}

/** The refusal every surface words its own way (429, JSON-RPC -31429, tRPC TOO_MANY_REQUESTS). */
export function rateLimitedError(rate: RateDecision): CodedError {
  return new CodedError("rate_limited", `Rate limit of ${rate.limit} requests per minute exceeded for this key. Retry in ${rate.resetSeconds} s.`);
}
