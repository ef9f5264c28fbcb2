import type { TRPCDefaultErrorShape, TRPCError } from "@trpc/server";
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
  return {
    message: failure.message,
    code: shape.code,
    data: {
      code: shape.data.code,
      httpStatus: shape.data.httpStatus,
      ...(shape.data.path === undefined ? {} : { path: shape.data.path }),
      ...(failure.issues ? { issues: failure.issues } : {}),
    },
  };
}
