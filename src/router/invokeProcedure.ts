import { getTRPCErrorFromUnknown, type TRPCError } from "@trpc/server";
import { CodedError } from "../schemas/errorCodes.ts";
import type { Context, Meta } from "./trpc.ts";

/** What tRPC hands a middleware (and what `next` takes), as far as a procedure of ours reads it. */
interface MiddlewareOptions {
  path: string;
  type: "query" | "mutation" | "subscription";
  ctx: unknown;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}
interface NextOptions {
  ctx?: object;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}
type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
type Middleware = ((options: MiddlewareOptions & { meta: unknown; next(options?: NextOptions): Promise<MiddlewareResult> }) => Promise<MiddlewareResult>) & {
  /** tRPC's mark on the middlewares it makes: "input" and "output" check the schemas. */
  _type?: string;
};

/** A built procedure's definition: its steps in order (ours, then input, output, the resolver). */
export interface ProcedureDefinition {
  type: "query" | "mutation" | "subscription";
  meta?: Meta;
  middlewares: readonly Middleware[];
}

/**
 * The one door for in-process calls (REST, MCP, the console); tRPC's own surface keeps tRPC's
 * fetchRequestHandler. Why this copy and not tRPC's createCaller everywhere: measured with
 * scripts/bench/invokeCost.ts (same app, same inputs, two runs of 9 × 4,000 calls on a shared
 * 2-core machine), the caller costs 13 to 27 µs more per call than this door: brokers.search
 * 2.2 µs here against 26 to 28 µs through a fresh caller, brokers.get 1.4 against 19, leads.list
 * 5.3 to 6.3 against 19 to 26, carriers.list 22 to 34 against 35 to 61. A whole REST request to
 * leads.list or carriers.list costs 63 to 124 µs over loopback, so the caller would add 15 to
 * 30 % to it (part of that is the output check trustedOutput skips, which a caller cannot skip).
 * So this copy stays, with @trpc/server pinned to an exact version in package.json (and
 * @trpc/client, whose peer dependency names it exactly); test/unit/invoke-procedure.test.ts
 * checks the pin and the equivalence: upgrading tRPC is a deliberate change that re-reads
 * callRecursive and runs that test.
 *
 * Runs a procedure for an in-process adapter exactly as tRPC's server-side caller
 * does — the same middlewares, in the same order, with the same options, errors turned into
 * TRPCErrors the same way — without its costs: the caller's proxy, and tRPC's objectSpread
 * helper, which copies every option property by property at each of a procedure's middleware
 * levels. Those cost an uncached search more than its input parsing, search and output check
 * together. Mirrors callRecursive and createProcedureCaller of @trpc/server 11
 * (test/unit/invoke-procedure.test.ts holds answers and errors equal to the caller's), with
 * two differences on purpose: a procedure whose meta says trustedOutput skips tRPC's output
 * check (see Meta in trpc.ts), and an input the adapter already parsed with the procedure's
 * own schema is not parsed again.
 */
export async function invokeProcedure(definition: ProcedureDefinition, path: string, ctx: Context, input: unknown, parsed?: unknown): Promise<unknown> {
  const result = await callFrom(0, definition, {
    path,
    type: definition.type,
    ctx,
    input: undefined,
    getRawInput: () => Promise.resolve(input),
    signal: undefined,
    batchIndex: 0,
  }, parsed);
  if (!result) throw new CodedError("internal_error", "No result from middlewares - did you forget to `return next()`?");
  if (!result.ok) throw result.error;
  return result.data;
}

/** `parsed`: the input already parsed by the procedure's schema (see callProcedure), until the input check. */
async function callFrom(index: number, definition: ProcedureDefinition, options: MiddlewareOptions, parsed: unknown): Promise<MiddlewareResult> {
  try {
    let middleware = definition.middlewares[index]!;
    // Skipped levels are stepped over here rather than each called as a level of its own (an
    // async call, an await and a copy of the options each: about 1 µs of a cache miss).
    for (;;) {
      if (middleware._type === "output" && definition.meta?.trustedOutput) {
        // Skipped as if it called next() and handed the result on unchanged.
        middleware = definition.middlewares[++index]!;
      } else if (middleware._type === "input" && parsed !== undefined) {
        // Skipped as if it had parsed the raw input into what the adapter parsed with the same schema.
        options = { ...options, input: parsed };
        parsed = undefined;
        middleware = definition.middlewares[++index]!;
      } else break;
    }
    return await middleware({
      ...options,
      meta: definition.meta,
      next(nextOptions) {
        return callFrom(index + 1, definition, {
          ...options,
          ctx: nextOptions?.ctx ? { ...(options.ctx as object), ...nextOptions.ctx } : options.ctx,
          input: nextOptions && "input" in nextOptions ? nextOptions.input : options.input,
          getRawInput: nextOptions?.getRawInput ?? options.getRawInput,
        }, parsed);
      },
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause) };
  }
}
