import { z } from "zod";
import { BROKER_PHOTO_ROUTE } from "../router/embed/photoUrl.ts";
import { procedureFacts, procedurePaths } from "../router/procedureCatalog.ts";
import { CONSOLE_SESSION_ROUTES, consoleRoutes } from "./console/consoleRoutes.ts";
import { resourceProcedures } from "./mcp/resources.ts";
import { tools } from "./mcp/tools.ts";
import { restRoutes } from "./rest/restRoutes.ts";
import { TRPC_ENDPOINT } from "./trpc/trpcHandler.ts";

/** One capability and every door to it. */
export interface Capability {
  /** The tRPC path of the procedure, or "—" for a route that calls none. */
  procedure: string;
  /** The scope it needs, "none" for public routes, or "session" for the console's own endpoints. */
  scope: string;
  /** The procedure's input fields, read from its zod schema. */
  inputs: string[];
  rest: string[];
  mcp: string[];
  trpc: string;
  /** The workspace console's JSON API (a signed-in session acts with every scope of its workspace; directory:write only for a workspace holding a live key with it). */
  console: string[];
}

/** The fields an input schema takes: an object's, or, for one that transforms what it takes (a broker record), the object it reads. */
function inputFields(input: z.ZodType): string[] {
  if (input instanceof z.ZodObject) return Object.keys(input.shape);
  if (input instanceof z.ZodPipe) return inputFields(input.in as z.ZodType);
  return [];
}

/** Routes that call no procedure: public, no key. */
const PUBLIC_ROUTES: readonly { rest: string; why: string }[] = [
  { rest: `GET ${BROKER_PHOTO_ROUTE}`, why: "broker picture (an <img> cannot send a key)" },
  { rest: "GET /api/v1/openapi.json", why: "the OpenAPI 3.1 document of this table's REST column" },
];

/**
 * Every capability in one table: procedure | scope | input fields | REST method and path |
 * MCP tool or resource | tRPC path | console API path. Derived from the router and the adapters' own tables, never written
 * by hand, so it cannot drift from what the server does; the README shows this same table
 * (test/contract/capabilities.test.ts fails when they differ).
 */
export function capabilityTable(): Capability[] {
  const rows: Capability[] = procedurePaths().map((path) => {
    const facts = procedureFacts(path);
    return {
      procedure: path,
      scope: facts.scope,
      inputs: inputFields(facts.input),
      rest: restRoutes.filter((r) => r.procedure === path).map((r) => `${r.method} ${r.path}`),
      mcp: [
        ...tools.filter((t) => t.procedure === path).map((t) => `tool ${t.name}`),
        ...resourceProcedures.filter((r) => r.procedure === path).map((r) => `resource ${r.uri}`),
      ],
      trpc: `${facts.kind === "query" ? "GET" : "POST"} ${TRPC_ENDPOINT}/${path}`,
      console: consoleRoutes.filter((r) => r.procedure === path).map((r) => `${r.method} ${r.path}`),
    };
  });
  const noProcedure = { procedure: "—", inputs: [], rest: [], mcp: [], trpc: "—", console: [] };
  for (const route of PUBLIC_ROUTES) rows.push({ ...noProcedure, scope: "none", rest: [route.rest] });
  for (const route of CONSOLE_SESSION_ROUTES) rows.push({ ...noProcedure, scope: "session", console: [`${route.method} ${route.path}`] });
  return rows;
}

/** The table as the README shows it (GitHub Markdown). */
export function capabilityMarkdown(): string {
  const code = (items: string[]) => (items.length === 0 ? "—" : items.map((i) => `\`${i}\``).join("<br>"));
  const scope = (s: string) => (s === "none" ? "none (public)" : s === "session" ? "console session" : `\`${s}\``);
  const lines = [
    "| Procedure | Scope | Input | REST | MCP | tRPC | Console |",
    "|---|---|---|---|---|---|---|",
    ...capabilityTable().map((c) =>
      `| ${c.procedure === "—" ? "—" : `\`${c.procedure}\``} | ${scope(c.scope)} | ${c.inputs.length === 0 ? "—" : c.inputs.join(", ")} | ${code(c.rest)} | ${code(c.mcp)} | ${c.trpc === "—" ? "—" : `\`${c.trpc}\``} | ${code(c.console)} |`,
    ),
  ];
  return lines.join("\n");
}
