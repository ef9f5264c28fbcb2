import { expect, test } from "bun:test";
import { toolResultJson } from "../../src/adapters/mcp/serializedResult.ts";

// toolCall builds a cached tool result's JSON from the structured content's JSON text; it
// must be byte for byte what serializing the whole result object gives.
const results: unknown[] = [
  { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } },
  {
    data: [{ id: "7", name: "Assurances Bélanger & Fils \"Québec\"", description: "Line\nbreak\ttab \\ slash — em dash 💼 \u2028", averageRating: 4.25, isVerified: true, distanceKm: 0 }],
    pagination: { page: 2, limit: 1, total: 3, totalPages: 3 },
    facets: { province: [{ value: "QC", count: 3 }], language: [] },
  },
];

for (const [i, result] of results.entries()) {
  test(`a tool result's spliced JSON equals serializing the object (${i})`, () => {
    const text = JSON.stringify(result);
    expect(toolResultJson(text)).toBe(JSON.stringify({ content: [{ type: "text", text }], structuredContent: result }));
  });
}
