import type { TRPCDefaultErrorShape, TRPCError } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { ErrorCode } from "../../schemas/errorCodes.ts";
import { errorDocs, issuesIn, toPublicError, type FieldIssue } from "../errorVocabulary.ts";
import { inLanguage } from "../frenchErrors.ts";
import type { Language } from "../../schemas/language.ts";

export interface SafeErrorShape {
  message: string;
  code: TRPCDefaultErrorShape["code"];
  data: {
    code: TRPCDefaultErrorShape["data"]["code"];
    httpStatus: number;
    path?: string;
    /** Per-field problems for invalid input, as on the REST surface. */
    issues?: FieldIssue[];
    /**
     * The code of the one vocabulary (the REST body's `code`). Not `data.code`: that is tRPC's
     * own (NOT_FOUND…), which tRPC clients read, and stays as it was.
     */
    errorCode: ErrorCode;
    /** The code's entry in the manual. */
    docs: string;
    /** The request's id (its X-Request-Id), when the request got as far as its context or admission. */
    requestId?: string;
  };
}

/**
 * The request id of an error thrown while the context was being made (a refused key, a batch
 * over the rate limit): tRPC then hands the formatter no context to read it from.
 */
const refusedRequests = new WeakMap<TRPCError, { requestId: string; language?: Language }>();

/** Marks an error thrown by createContext with its request's id and language (see refusedRequests). */
export function withRequestId<E extends TRPCError>(error: E, requestId: string, language?: Language): E {
  refusedRequests.set(error, { requestId, language });
  return error;
}

/**
 * How a tRPC error looks on the wire: the same words the REST surface uses (errorVocabulary),
 * never a stack trace, and for our own faults only the generic message (the detail goes to
 * the log through the adapter's onError).
 */
export function formatTrpcError({ shape, error, ctx }: { shape: TRPCDefaultErrorShape; error: TRPCError; ctx?: { requestId: string; language?: Language } }): SafeErrorShape {
  const failure = toPublicError(error);
  const refused = refusedRequests.get(error);
  const requestId = ctx?.requestId ?? refused?.requestId;
  // In French when the request asked (Accept-Language), as on REST: the message and each issue.
  const language = ctx ? ctx.language : refused?.language;
  const issues = issuesIn(language, failure);
  const message = language === "fr"
    ? inLanguage("fr", failure.code, failure.message, { fields: issues?.map((i) => i.path) ?? [], ...(failure.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: failure.retryAfterSeconds }) })
    : failure.message;
  // A full or read-only database surfaces as a storage error inside INTERNAL_SERVER_ERROR;
  // the vocabulary makes it a 503, and so does the shape (the adapter sets the HTTP status).
  const unavailable = failure.status === 503;
  return {
    message,
    code: unavailable ? TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE : shape.code,
    data: {
      code: unavailable ? "SERVICE_UNAVAILABLE" : shape.data.code,
      httpStatus: unavailable ? 503 : shape.data.httpStatus,
      ...(shape.data.path === undefined ? {} : { path: shape.data.path }),
      ...(issues ? { issues } : {}),
      errorCode: failure.code,
      docs: errorDocs(failure.code),
      ...(requestId === undefined ? {} : { requestId }),
    },
  };
}
