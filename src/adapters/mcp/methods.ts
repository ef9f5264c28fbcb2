import type { Era, McpCallContext } from "./callContext.ts";
import { ErrorCode, isPlainObject, McpProtocolError, type JsonObject, type JsonRpcErrorObject } from "./jsonRpc.ts";
import { codedData } from "./unavailable.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { META_SERVER_INFO, negotiateLegacyVersion, SUPPORTED_VERSIONS } from "./protocolVersions.ts";
import { listResources, listResourceTemplates, readResource } from "./resources.ts";
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from "./serverInfo.ts";
import { SerializedResult } from "./serializedResult.ts";
import { callTool } from "./toolCall.ts";
import { toolDescriptions } from "./tools.ts";

type Result = JsonObject | SerializedResult;
type Handler = (params: JsonObject, context: McpCallContext) => Result | Promise<Result>;

interface MethodSpec {
  eras: readonly Era[];
  handler: Handler;
  /**
   * 2026-07-28 cacheable results carry ttlMs and cacheScope. Every answer here depends on
   * the caller's key, so the scope is always "private".
   */
  ttlMs?: number;
}

const BOTH: readonly Era[] = ["legacy", "modern"];
/** Lists that only change with a new release of the server. */
const STATIC_TTL_MS = 60 * 60 * 1000;
/** Directory data: brokers and reviews change during the day. */
const DATA_TTL_MS = 60 * 1000;

/** Every JSON-RPC method this endpoint answers, and in which era. */
const methods: Record<string, MethodSpec> = {
  initialize: { eras: ["legacy"], handler: initialize },
  ping: { eras: ["legacy"], handler: () => ({}) },
  "server/discover": { eras: ["modern"], handler: discover, ttlMs: STATIC_TTL_MS },
  "tools/list": { eras: BOTH, handler: singlePage(() => ({ tools: toolDescriptions })), ttlMs: STATIC_TTL_MS },
  "tools/call": { eras: BOTH, handler: callTool },
  "resources/list": { eras: BOTH, handler: singlePage((_params, context) => listResources(context)), ttlMs: DATA_TTL_MS },
  "resources/templates/list": { eras: BOTH, handler: singlePage(listResourceTemplates), ttlMs: STATIC_TTL_MS },
  "resources/read": { eras: BOTH, handler: readResource, ttlMs: DATA_TTL_MS },
  "prompts/list": { eras: BOTH, handler: singlePage(listPrompts), ttlMs: STATIC_TTL_MS },
  "prompts/get": { eras: BOTH, handler: getPrompt },
};

export type Answer = { result: Result } | { error: JsonRpcErrorObject; httpStatus: number };

/**
 * Runs one request and says what to answer. Protocol errors keep their code; anything else
 * thrown is our fault: -32603 with no detail for the client, the detail in the log. The answer
 * is given at once when the method answers at once (a cached tool result), else later.
 */
export function answerRequest(method: string, params: unknown, context: McpCallContext): Answer | Promise<Answer> {
  try {
    const spec = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!spec || !spec.eras.includes(context.era)) throw methodNotFound(method, context.era);
    const result = spec.handler(isPlainObject(params) ? params : {}, context);
    if (result instanceof Promise) return result.then((settled) => answered(settled, spec, context)).catch((error: unknown) => failure(error, method, context));
    return answered(result, spec, context);
  } catch (error) {
    return failure(error, method, context);
  }
}

function answered(result: Result, spec: MethodSpec, context: McpCallContext): Answer {
  if (context.era !== "modern") return { result };
  return { result: modernResult(result instanceof SerializedResult ? (JSON.parse(result.text()) as JsonObject) : result, spec) };
}

function failure(error: unknown, method: string, context: McpCallContext): Answer {
  if (error instanceof McpProtocolError) return { error: error.toErrorObject(), httpStatus: error.httpStatus };
  context.logFailure(`${method} failed`, error);
  const data = codedData("internal_error", context.procedureContext.requestId);
  return { error: { code: ErrorCode.INTERNAL_ERROR, message: "Internal error. The failure was logged; retry later.", data }, httpStatus: 200 };
}

function initialize(params: JsonObject): JsonObject {
  if (typeof params.protocolVersion !== "string") {
    throw new McpProtocolError(ErrorCode.INVALID_PARAMS, "initialize needs params.protocolVersion: the latest MCP version the client speaks, e.g. 2025-11-25.");
  }
  return {
    protocolVersion: negotiateLegacyVersion(params.protocolVersion),
    capabilities: SERVER_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: SERVER_INSTRUCTIONS,
  };
}

function discover(): JsonObject {
  return { supportedVersions: SUPPORTED_VERSIONS, capabilities: SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS };
}

/** Every list fits in one page, so no cursor is ever issued and any cursor is invalid. */
function singlePage(list: Handler): Handler {
  return (params, context) => {
    if (params.cursor !== undefined) {
      throw new McpProtocolError(ErrorCode.INVALID_PARAMS, "Invalid cursor: this server returns every item in the first page and issues no cursors.");
    }
    return list(params, context);
  };
}

/** 2026-07-28 results say what they are, who answered, and (lists, reads) how long to keep them. */
function modernResult(result: JsonObject, spec: MethodSpec): JsonObject {
  const meta = isPlainObject(result._meta) ? result._meta : {};
  const cache = spec.ttlMs === undefined ? {} : { ttlMs: spec.ttlMs, cacheScope: "private" };
  return { ...result, resultType: "complete", ...cache, _meta: { ...meta, [META_SERVER_INFO]: { name: SERVER_INFO.name, version: SERVER_INFO.version } } };
}

/** 2026-07-28 answers an unknown method with HTTP 404; the 2025 revisions with 200. */
function methodNotFound(method: string, era: Era): McpProtocolError {
  const known = Object.keys(methods).filter((name) => methods[name]!.eras.includes(era));
  return new McpProtocolError(
    ErrorCode.METHOD_NOT_FOUND,
    `Method not found: ${JSON.stringify(method.slice(0, 100))}. This server answers ${known.join(", ")}.`,
    undefined,
    era === "modern" ? 404 : 200,
  );
}
