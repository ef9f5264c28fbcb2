import type { TRPCDefaultErrorShape, TRPCError } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { toPublicError, type FieldIssue } from "../errorVocabulary.ts";

export interface SafeErrorShape {
  message: string;
  code: TRPCDefaultErrorShape["code"];
  data: {
    code: TRPCDefaultErrorShape["data"]["code"];
    httpStatus: number;
    path?: string;
    /** Per-field problems for invalid input, as on the REST surface. */
    issues?: FieldIssue[];
  };
}

/**
 * How a tRPC error looks on the wire: the same words the REST surface uses (errorVocabulary),
 * never a stack trace, and for our own faults only the generic message (the detail goes to
 * the log through the adapter's onError).
 */
export function formatTrpcError({ shape, error }: { shape: TRPCDefaultErrorShape; error: TRPCError }): SafeErrorShape {
  const failure = toPublicError(error);
  // A full or read-only database surfaces as a storage error inside INTERNAL_SERVER_ERROR;
  // the vocabulary makes it a 503, and so does the shape (the adapter sets the HTTP status).
  const unavailable = failure.status === 503;
  return {
    message: failure.message,
    code: unavailable ? TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE : shape.code,
    data: {
      code: unavailable ? "SERVICE_UNAVAILABLE" : shape.data.code,
      httpStatus: unavailable ? 503 : shape.data.httpStatus,
      ...(shape.data.path === undefined ? {} : { path: shape.data.path }),
      ...(failure.issues ? { issues: failure.issues } : {}),
    },
  };
}
