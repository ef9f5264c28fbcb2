import { expect, test } from "bun:test";
import { acceptsJson } from "../../src/adapters/mcp/readMessageBody.ts";

// The values MCP clients send take a shortcut; every value must get the answer of the rule.
const cases: [string | null, boolean][] = [
  [null, true],
  ["", true],
  ["  ", true],
  ["application/json, text/event-stream", true],
  ["application/json", true],
  ["text/event-stream", true],
  ["*/*", true],
  ["application/*;q=0.5", true],
  ["Application/JSON; charset=utf-8", true],
  ["text/html, application/xml;q=0.9", false],
  ["text/plain", false],
  ["application/json-patch+json", false],
];
for (const [accept, expected] of cases) {
  test(`Accept ${JSON.stringify(accept)} ${expected ? "allows" : "rules out"} a JSON answer`, () => {
    expect(acceptsJson(accept)).toBe(expected);
  });
}
