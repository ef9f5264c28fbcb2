import { expect, test } from "bun:test";
import { capabilityMarkdown, capabilityTable } from "../../src/adapters/capabilities.ts";
import { CONSOLE_SESSION_ROUTES, consoleRoutes } from "../../src/adapters/console/consoleRoutes.ts";
import { tools } from "../../src/adapters/mcp/tools.ts";
import { restRoutes } from "../../src/adapters/rest/restRoutes.ts";
import { procedureFacts, procedurePaths } from "../../src/router/procedureCatalog.ts";
import { END, START } from "../../scripts/capabilities.ts";

/** One table lists every capability; the README shows that same table. */
test("the README's capability table is the one the code derives (run `bun scripts/capabilities.ts` to refresh it)", async () => {
  const readme = await Bun.file(new URL("../../README.md", import.meta.url)).text();
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  expect(start).toBeGreaterThan(-1);
  expect(readme.slice(start + START.length, end).trim()).toBe(capabilityMarkdown());
});

test("every procedure is in the table with the scope it enforces, and every REST row, console route and tool appears once", () => {
  const table = capabilityTable();
  for (const path of procedurePaths()) {
    expect(table.find((row) => row.procedure === path)?.scope).toBe(procedureFacts(path).scope);
  }
  const restCells = table.flatMap((row) => row.rest);
  for (const route of restRoutes) expect(restCells.filter((cell) => cell === `${route.method} ${route.path}`)).toHaveLength(1);
  const mcpCells = table.flatMap((row) => row.mcp);
  for (const tool of tools) expect(mcpCells).toContain(`tool ${tool.name}`);
  expect(restCells).toContain("GET /api/v1/openapi.json");
  const consoleCells = table.flatMap((row) => row.console);
  for (const route of [...consoleRoutes, ...CONSOLE_SESSION_ROUTES]) expect(consoleCells.filter((cell) => cell === `${route.method} ${route.path}`)).toHaveLength(1);
  expect(restCells).toContain("GET /api/v1/embed/brokers/:slug/photo.svg");
});

test("a REST route and a tool take their scope, output schema and directoryRead from their procedure", () => {
  for (const route of restRoutes) {
    const facts = procedureFacts(route.procedure);
    expect({ route: route.path, scope: route.scope, directoryRead: route.directoryRead }).toEqual({ route: route.path, scope: facts.scope, directoryRead: facts.directoryRead });
    expect(route.output).toBe(facts.output);
  }
  for (const tool of tools) {
    const facts = procedureFacts(tool.procedure);
    expect({ tool: tool.name, scope: tool.scope, directoryRead: tool.directoryRead }).toEqual({ tool: tool.name, scope: facts.scope, directoryRead: facts.directoryRead });
    expect(tool.output).toBe(facts.output);
  }
  // The directory's reads, and only they, are kept by the adapters' caches.
  expect(procedurePaths().filter((path) => procedureFacts(path).directoryRead)).toEqual(["brokers.search", "brokers.get", "reviews.list", "embed.brokers", "embed.broker", "embed.reviews"]);
});
