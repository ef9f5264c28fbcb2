import type { ErrorCode as VocabularyCode } from "../../schemas/errorCodes.ts";
import { describeIssues, errorFields, toPublicError } from "../errorVocabulary.ts";
import type { McpCallContext } from "./callContext.ts";
import { ErrorCode, isPlainObject, McpProtocolError, type JsonObject } from "./jsonRpc.ts";
import { SerializedResult, toolResultJson } from "./serializedResult.ts";
import type { McpTool } from "./toolDefinition.ts";
import { toolsByName } from "./tools.ts";
import { throwIfUnavailable } from "./unavailable.ts";

/** A tool's result: an object, or JSON already serialized (a cacheable result). */
type ToolAnswer = JsonObject | SerializedResult;

/** What a tool result says when it is an idempotency key's stored first answer (REST's Idempotent-Replayed). */
export const REPLAYED_META_KEY = "broker-directory/idempotent-replayed";

/** Where a tool error result carries its code (an MCP `_meta` key: a prefix of ours, then a name). */
export const ERROR_META_KEY = "broker-directory/error";

/**
 * tools/call. A malformed request or an unknown tool is a protocol error (-32602); anything
 * that goes wrong once the tool runs — arguments that fail its schema, an unknown slug, a
 * missing scope — is a tool result with isError, worded so the model can correct itself.
 * Synchronous up to the tool's own call: a cached result is answered without a promise.
 */
export function callTool(params: JsonObject, context: McpCallContext): ToolAnswer | Promise<ToolAnswer> {
  const name = params.name;
  if (typeof name !== "string" || name === "") {
    throw new McpProtocolError(ErrorCode.INVALID_PARAMS, "tools/call needs params.name: the name of a tool from tools/list.");
  }
  const tool = toolsByName.get(name);
  if (!tool) {
    throw new McpProtocolError(
      ErrorCode.INVALID_PARAMS,
      `Unknown tool: ${JSON.stringify(name.slice(0, 100))}. Available tools: ${[...toolsByName.keys()].join(", ")}.`,
    );
  }
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) {
    throw new McpProtocolError(ErrorCode.INVALID_PARAMS, "tools/call params.arguments must be a JSON object when present.");
  }

  // A directory read by a key holding its scope is answered from the cache while the directory
  // version holds (2025 era only: its results go out as they are). A key without the scope
  // goes on to the procedure, which refuses it in its words.
  const cacheKey = tool.directoryRead && context.era === "legacy" && context.principal.scopes.has(tool.scope) ? context.toolResults.keyOf(tool, args) : undefined;
  const version = cacheKey === undefined ? 0 : context.services.brokers.version();
  if (cacheKey !== undefined) {
    const cached = context.toolResults.get(cacheKey, version, context.baseUrl);
    if (cached !== undefined) return new SerializedResult(cached);
  }

  // A cache key is only ever made for arguments that passed the tool's schema: no second check.
  const checked = cacheKey === undefined ? tool.input.safeParse(args) : undefined;
  if (checked && !checked.success) {
    const issues = describeIssues(checked.error).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    const text = `Invalid arguments for ${tool.name}: ${issues.join("; ")}`;
    return toolError(/[.!?]$/.test(text) ? text : `${text}.`, "invalid_parameter", context);
  }
  return runTool(tool, args, cacheKey, version, context);
}

/** The tool's procedure, its result serialized (and kept, for a cacheable call) or its failure worded. */
async function runTool(tool: McpTool, args: JsonObject, cacheKey: string | undefined, version: number, context: McpCallContext): Promise<ToolAnswer> {
  try {
    const { result, replayed } = await tool.call(context.procedureContext, args);
    const text = JSON.stringify(result);
    if (replayed) return { content: [{ type: "text", text }], structuredContent: result as JsonObject, _meta: { [REPLAYED_META_KEY]: true } };
    if (cacheKey === undefined) return { content: [{ type: "text", text }], structuredContent: result as JsonObject };
    const json = toolResultJson(text);
    return new SerializedResult(context.toolResults.set(cacheKey, version, context.baseUrl, json) ?? json);
  } catch (error) {
    const failure = toPublicError(error);
    throwIfUnavailable(failure, context.procedureContext.requestId);
    if (failure.internal) context.logFailure(`tool ${tool.name} failed`, error);
    return toolError(failure.message, failure.code, context);
  }
}

/**
 * A tool result with isError: the message for the model, and the code, request id and manual
 * entry under `_meta` (ERROR_META_KEY) for the program around it. Not in structuredContent:
 * every tool declares an outputSchema, and the TypeScript SDK's client (1.32) checks an error
 * result's structuredContent against it too, so an error there would throw in the client
 * instead of reaching the model (modelcontextprotocol/typescript-sdk#1943).
 */
function toolError(message: string, code: VocabularyCode, context: McpCallContext): JsonObject {
  return { content: [{ type: "text", text: message }], isError: true, _meta: { [ERROR_META_KEY]: errorFields(code, context.procedureContext.requestId) } };
}
