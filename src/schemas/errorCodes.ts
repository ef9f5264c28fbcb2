import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { z } from "zod";

/**
 * The one vocabulary of error codes: every error body (REST, embed, console), every MCP error
 * and every tRPC error names one of these, so a client branches on the code, never on the
 * wording (which changes, and is French on request). Each code is a distinct failure a client
 * could act on differently, and each is produced somewhere today (test/contract/error-catalogue
 * provokes every one through a real server). Each is documented, with what to do, in the
 * manual's errors page (src/adapters/docs/manual/errors.md), at the anchor named after it.
 *
 * The value is the kind of failure in tRPC's words (what procedures throw, and what the tRPC
 * surface answers); src/adapters/errorVocabulary.ts turns a kind into an HTTP status, once.
 * A code is never renamed or removed once shipped: clients branch on it.
 */
const KIND_OF_CODE = {
  // What was sent.
  invalid_parameter: "UNPROCESSABLE_CONTENT",
  invalid_json: "UNPROCESSABLE_CONTENT",
  not_enough_carriers: "UNPROCESSABLE_CONTENT",
  payload_too_large: "PAYLOAD_TOO_LARGE",
  unsupported_media_type: "UNSUPPORTED_MEDIA_TYPE",
  not_acceptable: "BAD_REQUEST",
  invalid_request_target: "BAD_REQUEST",
  request_target_too_long: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  idempotency_conflict: "UNPROCESSABLE_CONTENT",
  method_not_allowed: "METHOD_NOT_SUPPORTED",
  // Who sent it: the key, its origins and scopes, its rate.
  missing_api_key: "UNAUTHORIZED",
  malformed_authorization: "UNAUTHORIZED",
  invalid_api_key: "UNAUTHORIZED",
  api_key_revoked: "UNAUTHORIZED",
  api_key_expired: "UNAUTHORIZED",
  embed_key_not_allowed: "FORBIDDEN",
  origin_missing: "FORBIDDEN",
  origin_not_allowed: "FORBIDDEN",
  server_key_in_browser: "FORBIDDEN",
  scope_missing: "FORBIDDEN",
  too_many_auth_failures: "TOO_MANY_REQUESTS",
  rate_limited: "TOO_MANY_REQUESTS",
  too_many_downloads: "TOO_MANY_REQUESTS",
  too_many_uploads: "TOO_MANY_REQUESTS",
  // What it named.
  broker_not_found: "NOT_FOUND",
  quote_not_found: "NOT_FOUND",
  lead_not_found: "NOT_FOUND",
  key_not_found: "NOT_FOUND",
  webhook_not_found: "NOT_FOUND",
  review_not_found: "NOT_FOUND",
  // Managing keys.
  scope_not_grantable: "FORBIDDEN",
  rate_limit_not_grantable: "FORBIDDEN",
  key_limit_reached: "CONFLICT",
  key_already_rolled: "CONFLICT",
  key_not_active: "CONFLICT",
  // Managing webhook endpoints.
  webhook_limit_reached: "CONFLICT",
  // The console and the operator's pages.
  session_required: "UNAUTHORIZED",
  csrf_token_invalid: "FORBIDDEN",
  host_not_allowed: "FORBIDDEN",
  local_only: "FORBIDDEN",
  invalid_metrics_token: "UNAUTHORIZED",
  // The service itself.
  database_unavailable: "SERVICE_UNAVAILABLE",
  read_only: "SERVICE_UNAVAILABLE",
  storage_full: "SERVICE_UNAVAILABLE",
  database_busy: "SERVICE_UNAVAILABLE",
  server_busy: "SERVICE_UNAVAILABLE",
  client_closed_request: "CLIENT_CLOSED_REQUEST",
  internal_error: "INTERNAL_SERVER_ERROR",
} as const satisfies Record<string, TRPC_ERROR_CODE_KEY>;

export type ErrorCode = keyof typeof KIND_OF_CODE;

/** Every code, in the order above (the manual's and the OpenAPI enum's). */
export const ERROR_CODES = Object.keys(KIND_OF_CODE) as [ErrorCode, ...ErrorCode[]];

/** The `code` field of an error body. */
export const errorCodeSchema = z.enum(ERROR_CODES);

/** The tRPC kind of a code: what the tRPC surface answers, and what errorVocabulary turns into a status. */
export function kindOf(code: ErrorCode): TRPC_ERROR_CODE_KEY {
  return KIND_OF_CODE[code];
}

/**
 * A failure with its code attached where it happens: procedures, admission and the body
 * reader throw these (never a bare TRPCError), and every surface reads `errorCode` from it.
 * A TRPCError all the same, so tRPC passes it through untouched.
 */
export class CodedError extends TRPCError {
  readonly errorCode: ErrorCode;

  constructor(errorCode: ErrorCode, message: string, cause?: unknown) {
    super({ code: KIND_OF_CODE[errorCode], message, cause });
    this.errorCode = errorCode;
  }
}
