import { z } from "zod";
import type { Scope } from "../../auth/scopes.ts";
import type { Caller } from "../../router/appRouter.ts";
import type { JsonObject } from "./jsonRpc.ts";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** One MCP tool: what tools/list shows and how tools/call reaches its procedure. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  /** Arguments as the tool takes them: derived from the procedure's input schema, strict. */
  input: z.ZodType;
  /** The procedure's output schema: structuredContent is exactly the procedure's result. */
  output: z.ZodType;
  annotations: ToolAnnotations;
  /** Called with arguments that passed `input`, exactly as the client sent them. */
  call: (caller: Caller, args: JsonObject) => Promise<unknown>;
}

/**
 * Declares a tool with `call` typed by its input schema. The arguments handed to `call` are
 * the client's own (after `input` accepted them), not the parsed output: the procedure
 * parses them itself, so transforms run once, exactly as for REST.
 */
export function defineTool<S extends z.ZodType<JsonObject>>(tool: Omit<McpTool, "input" | "call"> & {
  input: S;
  call: (caller: Caller, args: z.input<S>) => Promise<unknown>;
}): McpTool {
  // The one cast: tools/call runs `call` only with arguments that `input` accepted.
  return { ...tool, call: (caller, args) => tool.call(caller, args as z.input<S>) };
}

/** The Tool object of tools/list, built once per process. */
export function describeTool(tool: McpTool) {
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description} Needs the ${tool.scope} scope.`,
    inputSchema: objectJsonSchema(tool.input, "input", tool.name),
    outputSchema: objectJsonSchema(tool.output, "output", tool.name),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * JSON Schema from zod, with the root checked to be an object (MCP clients reject the whole
 * tool list if one schema root is not `type: "object"`). `$schema` is left out: 2020-12 is
 * MCP's default dialect, and some validators choke on the explicit URI.
 */
export function objectJsonSchema(schema: z.ZodType, io: "input" | "output", toolName: string): JsonObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io }) as JsonObject;
  if (json.type !== "object") throw new Error(`Tool ${toolName}: its ${io} schema must be a JSON object schema.`);
  return json;
}
