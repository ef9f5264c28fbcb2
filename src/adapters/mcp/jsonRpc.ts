/**
 * JSON-RPC 2.0 as MCP uses it: message classification and the strict response envelopes.
 * The official SDK clients parse responses with strict schemas, so a response has exactly
 * `jsonrpc`, `id` and one of `result` / `error` — never `"error": null`, never an extra key.
 */

import type { ResponseBody } from "../http/json.ts";
// One way only: serializedResult.ts needs nothing of this file (an import circle was here once).
import { SerializedResult } from "./serializedResult.ts";

export type JsonRpcId = string | number;

/** Standard JSON-RPC codes, and the MCP codes of both protocol eras. */
export const ErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** 2025-11-25 and earlier: resources/read of an unknown URI (2026-07-28 uses -32602). */
  RESOURCE_NOT_FOUND: -32002,
  /** 2026-07-28: HTTP headers missing or not matching the body. */
  HEADER_MISMATCH: -32020,
  /** 2026-07-28: the request's protocol version is not served here. */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
  /**
   * Ours: the API key lacks the scope a resource or prompt needs. Outside the JSON-RPC
   * reserved range, as the 2026-07-28 revision asks of application-defined codes.
   */
  ACCESS_DENIED: -31403,
  /** Ours, likewise: the key's rate limit has no room for this message (HTTP 429 when alone). */
  RATE_LIMITED: -31429,
  /** Ours: the database cannot take writes now (full, read-only); HTTP 503 when alone. */
  SERVICE_UNAVAILABLE: -31503,
} as const;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonObject = Record<string, unknown>;

/** One incoming message, already checked against the JSON-RPC 2.0 rules. */
export type IncomingMessage =
  | { kind: "request"; id: JsonRpcId; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: JsonRpcId };

/**
 * Classifies a parsed JSON value, or explains why it is not a JSON-RPC message. `id: 0` is a
 * real request id (the SDK's first request uses it), so ids are tested for presence, not truth.
 */
export function classifyMessage(value: unknown): IncomingMessage | { invalid: string } {
  if (!isPlainObject(value)) return { invalid: "A JSON-RPC message must be a JSON object." };
  if (value.jsonrpc !== "2.0") return { invalid: 'The message must have "jsonrpc": "2.0".' };
  const hasId = Object.hasOwn(value, "id");
  if (hasId && !isValidId(value.id)) {
    return { invalid: "The id must be a string or an integer (MCP forbids null ids)." };
  }
  if (Object.hasOwn(value, "method")) {
    if (typeof value.method !== "string" || value.method === "") {
      return { invalid: "The method must be a non-empty string." };
    }
    if (Object.hasOwn(value, "params") && !isPlainObject(value.params)) {
      return { invalid: "The params must be a JSON object when present." };
    }
    return hasId
      ? { kind: "request", id: value.id as JsonRpcId, method: value.method, params: value.params }
      : { kind: "notification", method: value.method, params: value.params };
  }
  if (hasId && (Object.hasOwn(value, "result") || Object.hasOwn(value, "error"))) {
    return { kind: "response", id: value.id as JsonRpcId };
  }
  return { invalid: "The message has neither a method (request or notification) nor a result or error (response)." };
}

function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function resultEnvelope(id: JsonRpcId, result: JsonObject | SerializedResult): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson(result)}}`;
}

const utf8 = new TextEncoder();
/** `}`, the envelope's last byte. */
const CLOSE_BRACE = 0x7d;

/**
 * The same envelope as the body of a response: for a result held as UTF-8 bytes (a cached
 * tool result), those bytes between the envelope's own, instead of a 14 KB text that the
 * Response would encode again on every call (utf8Body says what that costs); the envelope
 * last made for the result is sent again as it is when the id is the same (see ResultBytes).
 */
export function resultEnvelopeBody(id: JsonRpcId, result: JsonObject | SerializedResult): ResponseBody {
  if (!(result instanceof SerializedResult) || typeof result.body === "string") return resultEnvelope(id, result);
  return result.body.enveloped(JSON.stringify(id), envelopeBytes);
}

function envelopeBytes(idJson: string, result: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const head = utf8.encode(`{"jsonrpc":"2.0","id":${idJson},"result":`);
  const body = new Uint8Array(head.length + result.length + 1);
  body.set(head);
  body.set(result, head.length);
  body[body.length - 1] = CLOSE_BRACE;
  return body;
}

/** An error answer; `id` is null only when the request's id could not be read. */
export function errorEnvelope(id: JsonRpcId | null, error: JsonRpcErrorObject): string {
  const body: JsonRpcErrorObject = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return JSON.stringify({ jsonrpc: "2.0", id, error: body });
}

/**
 * A protocol-level failure of one request (unknown method, invalid params, unknown
 * resource…). Method handlers throw it; the dispatcher turns it into an error response.
 * `httpStatus` is set only where a revision prescribes one (2026-07-28: 400 or 404).
 */
export class McpProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus: number = 200,
  ) {
    super(message);
  }

  toErrorObject(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** The JSON text of a result, serialized once. */
function resultJson(result: JsonObject | SerializedResult): string {
  return result instanceof SerializedResult ? result.text() : JSON.stringify(result);
}
