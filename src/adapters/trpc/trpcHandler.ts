import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { admit, bearerToken, chargeMore, rateLimitedError } from "../../auth/admitRequest.ts";
import type { RateDecision } from "../../auth/rateLimiter.ts";
import { appRouter } from "../../router/appRouter.ts";
import type { Context } from "../../router/trpc.ts";
import type { Services } from "../../services.ts";
import { kindOf, type ErrorCode } from "../../schemas/errorCodes.ts";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from "../../schemas/idempotencyKey.ts";
import { errorFields, retryAfterHeaders, statusOf, toPublicError } from "../errorVocabulary.ts";
import { declaresBody, MAX_BODY_BYTES, readBodyBytes } from "../http/readBodyBytes.ts";
import { BODY_ABORTED_MESSAGE } from "../http/readJsonText.ts";
import { rateLimitHeaders } from "../http/rateLimitHeaders.ts";
import type { RequestInfo } from "../http/requestInfo.ts";
import type { TargetUrl } from "../http/splitUrl.ts";
import { withRequestId } from "./errorFormatter.ts";

export const TRPC_ENDPOINT = "/trpc";
/** Calls in one batch at most; each call counts against the key's rate limit. */
export const MAX_TRPC_BATCH = 10;

/**
 * POST/GET /trpc/*: the router itself, over tRPC's fetch adapter (superjson is configured on
 * the router). The request passes the same gate as every surface; a batch of N calls is
 * charged N units (chargeMore), so batching never stretches a key's rate limit.
 */
export function createTrpcHandler(services: Services) {
  const procedures = new Set(Object.keys(appRouter._def.procedures));

  return async function handleTrpc(request: Request, url: TargetUrl, info: RequestInfo): Promise<Response> {
    info.route = routeLabel(url.pathname, procedures);
    // The fetch adapter has no body limit of its own: the body is read here, by the reader
    // every surface uses (it counts bytes, so a chunked body cannot slip past), and handed on.
    // Asked of the headers, not of `request.body`: touching that first leaves the read pending
    // forever when the client goes away mid-body (see readBodyBytes).
    if (declaresBody(request)) {
      const bytes = await readBodyBytes(request);
      if (bytes === "too-large") return trpcErrorResponse(info, "payload_too_large", `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
      if (bytes === "aborted") return trpcErrorResponse(info, "client_closed_request", BODY_ABORTED_MESSAGE);
      request = new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
    }
    let rate: RateDecision | undefined;
    let refusedUnauthenticated = false;

    const response = await fetchRequestHandler({
      endpoint: TRPC_ENDPOINT,
      req: request,
      router: appRouter,
      maxBatchSize: MAX_TRPC_BATCH,
      async createContext({ info: call }): Promise<Context> {
        const admission = await admit(services, {
          authorization: request.headers.get("authorization"),
          origin: request.headers.get("origin"),
          surface: "trpc",
          ownOrigin: info.baseUrl,
          client: info,
        });
        rate = admission.rate;
        if (!admission.ok) {
          refusedUnauthenticated = admission.error.code === "UNAUTHORIZED";
          throw withRequestId(admission.error, info.requestId, info.language);
        }
        const { principal } = admission;
        info.keyId = principal.keyId;
        // Admission counted the first call; the rest of a batch is charged at once, all or none.
        if (call.calls.length > 1) {
          rate = await chargeMore(services, principal, call.calls.length - 1);
          if (!rate.allowed) throw withRequestId(rateLimitedError(rate), info.requestId, info.language);
        }
        // One key per HTTP request: each call of a batch would claim it (send keyed mutations alone).
        const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
        const idempotency = key === null ? undefined : { key, replayed: false, callerKey: bearerToken(request.headers.get("authorization")) };
        return {
          services, principal, surface: "trpc", requestId: info.requestId, baseUrl: info.baseUrl, idempotency,
          // Read from Accept-Language only when an error is worded (few requests).
          get language() {
            return info.language;
          },
        };
      },
      responseMeta({ ctx, errors, info: call }) {
        const headers: Record<string, string> = rateLimitHeaders(rate);
        if (ctx?.idempotency?.replayed) headers[IDEMPOTENT_REPLAYED_HEADER] = "true";
        if (refusedUnauthenticated) headers["WWW-Authenticate"] = 'Bearer realm="broker-directory"';
        // tRPC answers a storage error 500; when every call met one (full or read-only
        // database), the answer is the vocabulary's 503 with Retry-After.
        const failures = errors.map(toPublicError);
        const unavailable = failures.find((f) => f.status === 503);
        if (unavailable) Object.assign(headers, retryAfterHeaders(unavailable));
        if (unavailable && failures.length >= (call?.calls.length ?? 1) && failures.every((f) => f.status === 503)) return { headers, status: 503 };
        return { headers };
      },
      onError({ error, path, type }) {
        // Expected refusals (auth, validation, not found) are the caller's business; only our
        // own faults are logged, with the detail the caller never sees.
        if (!toPublicError(error).internal) return;
        services.log.error("procedure failed", {
          requestId: info.requestId,
          route: info.route,
          procedure: path,
          type,
          error: `${error.name}: ${error.message}`,
          cause: error.cause instanceof Error ? error.cause.stack : undefined,
        });
      },
    });
    return response;
  };
}

/** tRPC's error envelope (superjson-wrapped) for a refusal made before the router runs, in the formatter's shape. */
function trpcErrorResponse(info: RequestInfo, errorCode: ErrorCode, message: string): Response {
  const code = kindOf(errorCode);
  const status = statusOf(errorCode);
  const { requestId, docs } = errorFields(errorCode, info.requestId);
  const data = { code, httpStatus: status, errorCode, docs, requestId };
  const body = { error: { json: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data } } };
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * The access-log and metrics label of a tRPC request: the procedure path when it names one
 * procedure of the router, else a fixed word (a batch, or a path nobody defined), so labels
 * stay a small fixed set whatever a client sends.
 */
function routeLabel(pathname: string, procedures: ReadonlySet<string>): string {
  const rest = pathname.slice(TRPC_ENDPOINT.length + 1);
  if (rest.includes(",")) return `${TRPC_ENDPOINT}/(batch)`;
  return procedures.has(rest) ? `${TRPC_ENDPOINT}/${rest}` : `${TRPC_ENDPOINT}/(unknown)`;
}
