import { z } from "zod";
import { toJsonSchema } from "../../schemas/jsonSchema.ts";
import type { Scope } from "../../auth/scopes.ts";
import type { Context } from "../../router/trpc.ts";
import { callProcedure, procedureFacts, type ProcedurePath } from "../../router/procedureCatalog.ts";
import type { JsonObject } from "./jsonRpc.ts";
import { idempotencyKeySchema } from "../../schemas/idempotencyKey.ts";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** One MCP tool as written in tools.ts: what tools/list shows and the procedure it calls. */
export interface McpToolSpec {
  name: string;
  title: string;
  description: string;
  /** The procedure behind the tool: its scope and output schema are read from it, never restated. */
  procedure: ProcedurePath;
  annotations: ToolAnnotations;
  /**
   * The tool's arguments, when they are not the procedure's input as it is (a renamed field):
   * built from the procedure's input schema. They are made strict either way.
   */
  args?: (procedureInput: z.ZodObject) => z.ZodObject;
  /** Turns accepted arguments into the procedure's input (default: as they are). */
  toInput?: (args: JsonObject) => JsonObject;
}

/** A wired tool: the spec plus what its procedure declares. */
export interface McpTool extends McpToolSpec {
  scope: Scope;
  /** The procedure's meta says directoryRead: the result may be kept until the directory version moves. */
  directoryRead: boolean;
  /** Arguments as the tool takes them: derived from the procedure's input schema, strict. */
  input: z.ZodType;
  /** The procedure's output schema: structuredContent is exactly the procedure's result. */
  output: z.ZodType;
  /** Called with arguments that passed `input`, exactly as the client sent them; `replayed`: the answer is an idempotency key's stored first one. */
  call: (ctx: Context, args: JsonObject) => Promise<{ result: unknown; replayed: boolean }>;
}

/**
 * Wires a tool to its procedure. The arguments handed on are the client's own (after `input`
 * accepted them), not the parsed output: the procedure parses them itself, so transforms run
 * once, exactly as for REST.
 */
export function defineTool(spec: McpToolSpec): McpTool {
  const facts = procedureFacts(spec.procedure);
  if (!(facts.input instanceof z.ZodObject)) throw new Error(`Tool ${spec.name}: ${spec.procedure} must take an object.`);
  const args = spec.args ? spec.args(facts.input) : facts.input;
  // A tool that creates something takes the idempotency key as an argument (REST's header), declared once.
  const input = (facts.idempotent ? args.extend({ idempotencyKey: idempotencyKeySchema.optional() }) : args).strict();
  const toInput = spec.toInput ?? ((args: JsonObject) => args);
  return {
    ...spec,
    scope: facts.scope,
    directoryRead: facts.directoryRead,
    input,
    output: facts.output,
    // `idempotencyKey` is only ever present in arguments that passed `input`: a tool that creates something.
    async call(ctx, { idempotencyKey, ...rest }) {
      const idempotency = facts.idempotent && typeof idempotencyKey === "string" ? { key: idempotencyKey, replayed: false, callerKey: undefined } : undefined;
      const result = await callProcedure(idempotency ? { ...ctx, idempotency } : ctx, spec.procedure, toInput(rest));
      return { result, replayed: idempotency?.replayed === true };
    },
  };
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
  const { $schema: _dialect, ...json } = toJsonSchema(schema, { io }) as JsonObject;
  if (json.type !== "object") throw new Error(`Tool ${toolName}: its ${io} schema must be a JSON object schema.`);
  return json;
}
