import type { Era } from "./callContext.ts";
import { ErrorCode, isPlainObject, McpProtocolError, type JsonObject } from "./jsonRpc.ts";
import {
  HEADERLESS_VERSION,
  isLegacyVersion,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  MODERN_VERSION,
  SUPPORTED_VERSIONS,
} from "./protocolVersions.ts";

/** Methods whose target the 2026-07-28 transport mirrors into the Mcp-Name header. */
const NAMED_METHODS: Record<string, "name" | "uri"> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/**
 * Which era a request belongs to, after checking the version rules of that era; throws
 * McpProtocolError (HTTP 400) when they are broken.
 *
 * Modern (2026-07-28): the body's `params._meta` names a protocol version, or the method is
 * server/discover, or the MCP-Protocol-Version header says 2026-07-28. Its headers must mirror
 * the body (-32020), the version must be one we serve (-32022), and `_meta` must carry the
 * client capabilities (-32602).
 * Legacy: anything else. `initialize` carries its version in the body; other requests may
 * carry MCP-Protocol-Version, which must then be a version we speak (absent = 2025-03-26).
 */
export function requestEra(method: string, params: unknown, headers: Headers): Era {
  const meta = isPlainObject(params) && isPlainObject(params._meta) ? params._meta : undefined;
  const headerVersion = headers.get("mcp-protocol-version");
  const modern = (meta !== undefined && Object.hasOwn(meta, META_PROTOCOL_VERSION)) || method === "server/discover" || headerVersion === MODERN_VERSION;
  if (modern) {
    checkModernRequest(method, params as JsonObject | undefined, meta, headers);
    return "modern";
  }
  if (method !== "initialize" && headerVersion !== null && !isLegacyVersion(headerVersion)) throw unsupportedVersion(headerVersion);
  return "legacy";
}

/** The protocol version a legacy request declares in its header (for the batch rule). */
export function legacyHeaderVersion(headers: Headers): string {
  return headers.get("mcp-protocol-version") ?? HEADERLESS_VERSION;
}

function checkModernRequest(method: string, params: JsonObject | undefined, meta: JsonObject | undefined, headers: Headers): void {
  const version = meta?.[META_PROTOCOL_VERSION];
  if (typeof version !== "string") {
    throw badRequest(ErrorCode.INVALID_PARAMS, `A ${MODERN_VERSION} request must carry params._meta["${META_PROTOCOL_VERSION}"] (and "${META_CLIENT_CAPABILITIES}").`);
  }
  const headerVersion = headers.get("mcp-protocol-version");
  if (headerVersion !== version) {
    throw headerMismatch(headerVersion === null ? "The MCP-Protocol-Version header is missing" : `MCP-Protocol-Version header ${quote(headerVersion)} does not match _meta protocol version ${quote(version)}`);
  }
  const methodHeader = headers.get("mcp-method");
  if (methodHeader !== method) {
    throw headerMismatch(methodHeader === null ? "The Mcp-Method header is missing" : `Mcp-Method header ${quote(methodHeader)} does not match body method ${quote(method)}`);
  }
  const nameField = NAMED_METHODS[method];
  if (nameField) {
    const bodyValue = params?.[nameField];
    const nameHeader = headers.get("mcp-name");
    if (nameHeader === null) throw headerMismatch(`The Mcp-Name header is missing (it must carry params.${nameField} on ${method})`);
    const decoded = decodeHeaderValue(nameHeader);
    if (decoded === undefined) throw headerMismatch("The Mcp-Name header is not valid base64 inside =?base64?…?=");
    if (decoded !== bodyValue) throw headerMismatch(`Mcp-Name header ${quote(decoded)} does not match params.${nameField} ${quote(String(bodyValue))}`);
  }
  if (version !== MODERN_VERSION) throw unsupportedVersion(version);
  if (!isPlainObject(meta?.[META_CLIENT_CAPABILITIES])) {
    throw badRequest(ErrorCode.INVALID_PARAMS, `params._meta["${META_CLIENT_CAPABILITIES}"] is required (an object; {} when the client offers none).`);
  }
}

/** Header values outside plain ASCII arrive as `=?base64?…?=` (2026-07-28 Value Encoding). */
function decodeHeaderValue(value: string): string | undefined {
  const sentinel = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!sentinel) return value.startsWith("=?base64?") ? undefined : value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(sentinel[1]!, "base64"));
  } catch {
    return undefined;
  }
}

export function unsupportedVersion(requested: string): McpProtocolError {
  return badRequest(
    ErrorCode.UNSUPPORTED_PROTOCOL_VERSION,
    `Unsupported protocol version ${quote(requested)}. This server speaks ${SUPPORTED_VERSIONS.join(", ")}.`,
    { supported: SUPPORTED_VERSIONS, requested: requested.slice(0, 100) },
  );
}

function headerMismatch(detail: string): McpProtocolError {
  return badRequest(ErrorCode.HEADER_MISMATCH, `Header mismatch: ${detail}.`);
}

function badRequest(code: number, message: string, data?: unknown): McpProtocolError {
  return new McpProtocolError(code, message, data, 400);
}

const quote = (value: string) => JSON.stringify(value.slice(0, 200));
