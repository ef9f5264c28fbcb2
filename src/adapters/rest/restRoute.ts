import type { z } from "zod";
import type { Surface } from "../../auth/admitRequest.ts";
import type { Scope } from "../../auth/scopes.ts";
import type { Caller } from "../../router/appRouter.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route handler gets from the HTTP request, already split up. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  /** The parsed JSON body, for routes with `body: true`. */
  body: unknown;
  request: Request;
}

export interface RestRoute {
  method: HttpMethod;
  /** Path with `:name` segments, e.g. /api/v1/brokers/:slug. */
  path: string;
  /** `embed` routes may be called by browser embed keys and answer CORS. */
  surface: Extract<Surface, "rest" | "embed">;
  scope: Scope;
  summary: string;
  /** Zod schemas of the procedure behind the route (for the OpenAPI document). */
  input: z.ZodType;
  output: z.ZodType;
  /** Whether the route reads a JSON body. */
  body?: boolean;
  status?: number;
  /**
   * The answer depends only on the URL and the published directory (no workspace data), so the
   * adapter may keep it until the directory version moves. Only for GET routes.
   */
  directoryRead?: boolean;
  /** How the procedure's result becomes the response body: as it is, or inside `{ data }`. */
  envelope: "as-is" | "data";
  call: (caller: Caller, request: RestRequest) => Promise<unknown>;
}
