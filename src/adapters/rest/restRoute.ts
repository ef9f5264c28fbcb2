import type { z } from "zod";
import type { Surface } from "../../auth/admitRequest.ts";
import type { Scope } from "../../auth/scopes.ts";
import { callProcedure, procedureFacts, type ProcedurePath } from "../../router/procedureCatalog.ts";
import type { Context } from "../../router/trpc.ts";
import type { RenderedAnswer } from "../../router/renderedAnswer.ts";
import { firstQueryValues } from "../http/firstQueryValues.ts";
import { withPathParams } from "../http/withPathParams.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route handler gets from the HTTP request, already split up. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  /** The parsed JSON body, for routes with `body: true`. */
  body: unknown;
  request: Request;
}

/** A REST row as written in restRoutes.ts: the HTTP side, and the procedure it calls. */
export interface RestRouteSpec {
  method: HttpMethod;
  /** Path with `:name` segments, e.g. /api/v1/brokers/:slug. */
  path: string;
  /** `embed` routes may be called by browser embed keys and answer CORS. */
  surface: Extract<Surface, "rest" | "embed">;
  summary: string;
  /** The procedure behind the route: its scope and schemas are read from it, never restated. */
  procedure: ProcedurePath;
  /**
   * Whether the route reads a JSON body (its input); else the input is query plus path
   * parameters. `optional`: a request without one (no Content-Type, no length) counts as `{}`,
   * for a route whose every body field has a default (roll-secret's overlap).
   */
  body?: boolean | "optional";
  /** Input fields of the procedure this route does not take (left out of OpenAPI, dropped from the query). */
  hiddenInputs?: readonly string[];
  status?: number;
  /** How the procedure's result becomes the response body: as it is, inside `{ data }`, or a CSV file ({filename, csv}). */
  envelope: "as-is" | "data" | "csv";
  /**
   * The result's JSON text, when a function knows a faster way to the bytes JSON.stringify would
   * write (ratedAnswerJson). Typed `never` so any result type fits; the procedure's output
   * schema says what the route gets.
   */
  json?: (result: never) => string;
  /**
   * The answer as the directory may hold it rendered (RenderedAnswer), asked on a directory
   * read's cache miss; offered the answer's text after a call, when it keeps answers as they come.
   */
  rendered?: RenderedAnswer;
}

/** A wired route: the row plus what its procedure declares. */
export interface RestRoute extends RestRouteSpec {
  scope: Scope;
  /** A GET route to a procedure whose meta says directoryRead: its answer may be kept until the directory version moves. */
  directoryRead: boolean;
  /** A POST whose procedure takes an idempotency key: the route reads the Idempotency-Key header. */
  idempotent: boolean;
  /** Zod schemas of the procedure behind the route (for the OpenAPI document). */
  input: z.ZodType;
  output: z.ZodType;
  /** `parsed`: the input the route's own schema made of this request, when the adapter has it (the call skips parsing it again). */
  call: (ctx: Context, request: RestRequest, parsed?: unknown) => Promise<unknown>;
}

/**
 * Wires a REST row to its procedure. Bodies are handed over as parsed and query strings as
 * text: the procedure's own schema validates them, exactly as for every other surface.
 */
export function restRoute(spec: RestRouteSpec): RestRoute {
  const facts = procedureFacts(spec.procedure);
  return {
    ...spec,
    scope: facts.scope,
    directoryRead: facts.directoryRead && spec.method === "GET",
    idempotent: facts.idempotent && spec.method === "POST",
    input: facts.input,
    output: facts.output,
    call: (ctx, { params, query, body }, parsed) =>
      // Path parameters (a lead's id in PATCH /leads/:leadId) join the body's fields.
      callProcedure(ctx, spec.procedure, spec.body ? withPathParams(body, params) : queryInput(spec, params, query), parsed),
  };
}

/** The input a route without a body hands its procedure: the query (less its hidden inputs) under the path parameters. */
export function queryInput(route: Pick<RestRouteSpec, "hiddenInputs">, params: Record<string, string>, query: Record<string, string>): Record<string, string> {
  // Most routes hide nothing: no set and no filtered copy on their (uncached) path.
  if (!route.hiddenInputs?.length) return { ...query, ...params };
  const hidden = new Set(route.hiddenInputs);
  return { ...Object.fromEntries(Object.entries(query).filter(([name]) => !hidden.has(name))), ...params };
}

/** The query string as one value per name (the first, when a name repeats). */
export function queryObject(url: Pick<URL, "search" | "searchParams">): Record<string, string> {
  // No query string, no URLSearchParams: the directory's detail and review URLs have none, and
  // on a cache miss this was their one use of it (about 1 % of the request, CPU profile).
  if (url.search === "") return {};
  const plain = firstQueryValues(url.search);
  if (plain) return plain;
  const first = new Map<string, string>();
  for (const [name, value] of url.searchParams) if (!first.has(name)) first.set(name, value);
  // fromEntries defines own properties, so a parameter named __proto__ stays a plain key.
  return Object.fromEntries(first);
}
