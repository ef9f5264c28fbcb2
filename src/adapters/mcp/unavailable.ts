import type { ErrorCode as VocabularyCode } from "../../schemas/errorCodes.ts";
import { errorFields, type PublicError } from "../errorVocabulary.ts";
import { ErrorCode, McpProtocolError, type JsonObject } from "./jsonRpc.ts";

/**
 * The `data` of a JSON-RPC error that stands for a code of the error vocabulary: what else the
 * error says (retryAfterSeconds, uri), then the code, the request's id and the manual's entry,
 * as in a REST error body. JSON-RPC's own protocol errors (-32700…-32602, -32020, -32022)
 * carry none: their JSON-RPC code is their identifier.
 */
export function codedData(code: VocabularyCode, requestId: string, extra: JsonObject = {}): JsonObject {
  return { ...extra, ...errorFields(code, requestId) };
}

/**
 * A 503 of the error vocabulary (full or read-only database) as JSON-RPC: -31503 with
 * data.retryAfterSeconds, HTTP 503 when the message was sent alone (with Retry-After), rather
 * than a tool result the model would take for a problem with its arguments.
 */
export function throwIfUnavailable(failure: PublicError, requestId: string): void {
  if (failure.status !== 503) return;
  throw new McpProtocolError(ErrorCode.SERVICE_UNAVAILABLE, failure.message, codedData(failure.code, requestId, { retryAfterSeconds: failure.retryAfterSeconds }), 503);
}
