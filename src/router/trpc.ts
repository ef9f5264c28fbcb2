import { CodedError } from "../schemas/errorCodes.ts";
import type { Language } from "../schemas/language.ts";
import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { formatTrpcError } from "../adapters/trpc/errorFormatter.ts";
import type { Principal, Surface } from "../auth/admitRequest.ts";
import type { Scope } from "../auth/scopes.ts";
import type { Services } from "../services.ts";
import { refuseNulInWrite } from "./nulInput.ts";

/** What every procedure call knows about its request. Built by the adapter, after admission. */
export interface Context {
  services: Services;
  /** Null only if an adapter forgot to admit the request: scoped procedures then refuse it. */
  principal: Principal | null;
  surface: Surface;
  requestId: string;
  /** The service's public origin as the caller reached it (for absolute URLs). */
  baseUrl: string;
  /**
   * The language the request asked for (Accept-Language), where the surface has one (REST,
   * console, tRPC): errors are worded in it. Absent means English (MCP has none).
   */
  language?: Language;
  /** The request's idempotency key, when it sent one (read by procedures whose meta says idempotent). */
  idempotency?: IdempotencyRequest;
}

/**
 * What an adapter tells a procedure about the request's idempotency key (REST and /trpc: the
 * Idempotency-Key header; MCP: the tool's `idempotencyKey` argument), and what it learns back:
 * whether the answer is a replay (REST and tRPC then say Idempotent-Replayed: true). Read by
 * createOnce (idempotency.ts).
 */
export interface IdempotencyRequest {
  /** As the client sent it: checked by createOnce, once, for every surface. */
  key: string;
  replayed: boolean;
  /** The caller's API key (its bearer token), which seals an answer holding a secret (see answerSeal.ts). */
  callerKey: string | undefined;
}

export interface Meta {
  scope?: Scope;
  /**
   * The answer is built by our own code from typed rows (no outside text decides its shape),
   * so REST and MCP, which call in process, skip re-checking it against the output schema:
   * on an uncached search that check cost as much as the search itself. tRPC's own surface
   * still checks it, and test/unit/trusted-output.test.ts proves that the answers of every
   * such procedure are already exactly what the schema makes of them, byte for byte.
   */
  trustedOutput?: true;
  /**
   * The answer depends only on the input and the published directory (no workspace data), so
   * an adapter may keep it until the directory version moves: REST's response cache (GET
   * routes) and MCP's tool result cache read this, never a flag of their own.
   */
  directoryRead?: true;
  /**
   * It creates something and takes an idempotency key (src/router/idempotency.ts): REST and
   * tRPC read the Idempotency-Key header for it, and its MCP tool takes `idempotencyKey`.
   */
  idempotent?: true;
}

// isDev false: tRPC would otherwise put stack traces in error responses unless NODE_ENV is
// "production". The formatter words errors as the REST surface does (see errorFormatter.ts).
const t = initTRPC.context<Context>().meta<Meta>().create({ transformer: superjson, isDev: false, errorFormatter: formatTrpcError });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** What a caller is told when its key lacks a scope, on every surface. */
export function missingScopeMessage(scope: Scope): string {
  return `This API key lacks the ${scope} scope. Create a key that includes it.`;
}

/**
 * A procedure that needs `scope`. The check lives here, once: a new transport that forgets
 * to admit its requests gets UNAUTHORIZED, never data.
 *
 * One middleware does every step a scoped call takes, because each tRPC middleware level
 * copies the call's options and context property by property (its objectSpread helper): three
 * levels cost an uncached search about 20 µs, more than the search index itself. In order:
 * - the key and its scope;
 * - writes never store NUL (see nulInput.ts);
 * - a full or read-only database is reported where a procedure meets it, whatever the surface:
 *   logged once per episode, and /readyz turns 503 (the adapters answer 503, not 500).
 */
export function scopedProcedure(scope: Scope) {
  return t.procedure.meta({ scope }).use(async ({ ctx, next, path, type, getRawInput }) => {
    if (!ctx.principal) throw new CodedError("missing_api_key", "Missing API key.");
    if (!ctx.principal.scopes.has(scope)) throw new CodedError("scope_missing", missingScopeMessage(scope));
    if (type === "mutation") refuseNulInWrite(await getRawInput());
    // tRPC merges this into the context; spreading ctx here would copy it twice per call.
    const result = await next({ ctx: { principal: ctx.principal } });
    if (!result.ok) ctx.services.storage.report(result.error, path);
    return result;
  });
}
