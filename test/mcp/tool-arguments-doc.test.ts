import { expect, test } from "bun:test";
import { join } from "node:path";
import { tools } from "../../src/adapters/mcp/tools.ts";
import { describeTool } from "../../src/adapters/mcp/toolDefinition.ts";

/**
 * The MCP page's tool table names each tool's arguments; tools/list (generated from the
 * procedures' zod schemas) is the authority. The table once lacked near, sort and facets.
 */
test("the MCP page's tool table names every argument of each tool", async () => {
  const page = await Bun.file(join(import.meta.dir, "../../src/adapters/docs/manual/mcp.md")).text();
  for (const tool of tools) {
    const row = page.split("\n").find((line) => line.startsWith(`| \`${tool.name}\` |`));
    expect(row, `${tool.name} has a row`).toBeDefined();
    const argumentsCell = row!.split(" | ")[3]!;
    const documented = [...argumentsCell.matchAll(/\b([a-z][A-Za-z]+)\b\??/g)].map((m) => m[1]!);
    const properties = Object.keys((describeTool(tool).inputSchema as { properties?: object }).properties ?? {});
    for (const name of properties) expect({ tool: tool.name, documented: documented.includes(name), name }).toEqual({ tool: tool.name, documented: true, name });
  }
});
