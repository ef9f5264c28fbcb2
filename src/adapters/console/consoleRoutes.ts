import type { Caller } from "../../router/appRouter.ts";
import { withPathParams } from "../http/withPathParams.ts";
import type { HttpMethod } from "../rest/restRoute.ts";

export interface ConsoleCall {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

/**
 * The console's JSON API under /console/api: the same procedures as REST and tRPC, reached
 * with the session's principal instead of a key. `csv` answers are downloads.
 */
export interface ConsoleRoute {
  method: HttpMethod;
  path: string;
  answer: "json" | "csv";
  /** Whether the route reads a JSON body. */
  body?: true;
  status?: 201;
  call: (caller: Caller, request: ConsoleCall) => Promise<unknown>;
}

export const consoleRoutes: readonly ConsoleRoute[] = [
  { method: "GET", path: "/console/api/keys", answer: "json", call: (caller) => caller.keys.list({}) },
  { method: "POST", path: "/console/api/keys", answer: "json", body: true, status: 201, call: (caller, { body }) => caller.keys.create(body as never) },
  { method: "POST", path: "/console/api/keys/:keyId/revoke", answer: "json", call: (caller, { params }) => caller.keys.revoke({ keyId: params.keyId ?? "" }) },
  { method: "POST", path: "/console/api/keys/:keyId/roll", answer: "json", body: true, call: (caller, { params, body }) => caller.keys.roll(withPathParams(body, { keyId: params.keyId ?? "" })) },
  { method: "GET", path: "/console/api/usage", answer: "json", call: (caller, { query }) => caller.keys.usage(query as never) },
  { method: "GET", path: "/console/api/leads", answer: "json", call: (caller, { query }) => caller.leads.list(query as never) },
  { method: "GET", path: "/console/api/leads.csv", answer: "csv", call: (caller, { query }) => caller.leads.export(query as never) },
  { method: "GET", path: "/console/api/leads/:leadId", answer: "json", call: (caller, { params }) => caller.leads.get({ leadId: params.leadId ?? "" }) },
  { method: "PATCH", path: "/console/api/leads/:leadId", answer: "json", body: true, call: (caller, { params, body }) => caller.leads.update(withPathParams(body, { leadId: params.leadId ?? "" })) },
];
