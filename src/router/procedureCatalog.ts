import type { AnyProcedure } from "@trpc/server";
import type { z } from "zod";
import type { Scope } from "../auth/scopes.ts";
import { appRouter, type AppRouter } from "./appRouter.ts";
import { invokeProcedure, type ProcedureDefinition } from "./invokeProcedure.ts";
import type { Context, Meta } from "./trpc.ts";

/** "brokers.search" | "reviews.list" | …: every procedure's tRPC path, derived from the router. */
type PathsOf<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends AnyProcedure ? `${Prefix}${K}` : PathsOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type ProcedurePath = PathsOf<AppRouter["_def"]["record"]>;

/** What an adapter needs to know of a procedure, read from its definition (never restated). */
export interface ProcedureFacts {
  path: ProcedurePath;
  kind: "query" | "mutation";
  scope: Scope;
  /** Its answer may be kept until the directory version moves (Meta.directoryRead). */
  directoryRead: boolean;
  /** It creates something and takes an idempotency key (Meta.idempotent). */
  idempotent: boolean;
  /** Its zod input and output schemas, for validation messages, JSON Schema and OpenAPI. */
  input: z.ZodType;
  output: z.ZodType;
}

interface ProcedureDef extends ProcedureDefinition {
  inputs: unknown[];
  output?: unknown;
  meta?: Meta;
}

/**
 * The facts of the procedure at `path`. Throws at start-up (module load of the adapter that
 * asks) if the procedure is missing, has no scope, or lacks a single zod input and output: a
 * capability cannot be wired without them.
 */
export function procedureFacts(path: ProcedurePath): ProcedureFacts {
  const { type, inputs, output, meta } = definitionOf(path);
  if (type === "subscription") throw new Error(`${path}: subscriptions have no REST or MCP form.`);
  if (!meta?.scope) throw new Error(`${path}: a procedure must declare its scope (scopedProcedure).`);
  if (inputs.length !== 1 || !isZod(inputs[0]) || !isZod(output)) {
    throw new Error(`${path}: a procedure must have exactly one zod input and a zod output.`);
  }
  return { path, kind: type, scope: meta.scope, directoryRead: meta.directoryRead === true, idempotent: meta.idempotent === true, input: inputs[0], output };
}

/** Every procedure path of the router, in definition order (for the capability table). */
export function procedurePaths(): ProcedurePath[] {
  return Object.keys(appRouter._def.procedures) as ProcedurePath[];
}

/**
 * Calls the procedure at `path` in context `ctx`, with input the procedure itself validates
 * (adapters hand over what came off the wire): its middlewares, input and output checks run
 * as through tRPC's caller (see invokeProcedure for why not through the caller itself).
 * `parsed`, when given, is what the procedure's own input schema (procedureFacts' `input`)
 * already made of `input` in this request: the input check then is not run twice.
 *
 * Otherwise the input is parsed here, once, by that schema, and the call skips tRPC's input
 * step around the same parse (an async level, two awaits and a copy of the call's options:
 * about a microsecond of a detail miss). Input the schema refuses goes on as it came, and the
 * procedure's own input step refuses it in its words (parsed a second time: errors only).
 */
export function callProcedure(ctx: Context, path: ProcedurePath, input: unknown, parsed?: unknown): Promise<unknown> {
  const definition = definitionOf(path);
  return invokeProcedure(definition, path, ctx, input, parsed ?? parsedBySchema(definition, input));
}

/** What the procedure's single zod input schema makes of `input`, or undefined when it refuses it. */
function parsedBySchema(definition: ProcedureDef, input: unknown): unknown {
  const schema = definition.inputs[0];
  if (definition.inputs.length !== 1 || !isZod(schema)) return undefined;
  const result = schema.safeParse(input);
  return result.success ? result.data : undefined;
}

function definitionOf(path: ProcedurePath): ProcedureDef {
  // tRPC types `procedures` as the nested record; at run time it is flat, keyed by dotted path.
  const procedure = (appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef } | undefined>)[path];
  if (!procedure) throw new Error(`No procedure at ${path}.`);
  return procedure._def;
}

function isZod(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}
