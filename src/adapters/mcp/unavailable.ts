import type { PublicError } from "../errorVocabulary.ts";
import { ErrorCode, McpProtocolError } from "./jsonRpc.ts";

/**
 * A 503 of the error vocabulary (full or read-only database) as JSON-RPC: -31503 with
 * data.retryAfterSeconds, HTTP 503 when the message was sent alone (with Retry-After), rather
 * than a tool result the model would take for a problem with its arguments.
 */
export function throwIfUnavailable(failure: PublicError): void {
  if (failure.status !== 503) return;
  throw new McpProtocolError(ErrorCode.SERVICE_UNAVAILABLE, failure.message, { retryAfterSeconds: failure.retryAfterSeconds }, 503);
}
