import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { postMcp } from "./mcpSupport.ts";

/** search_brokers and get_reviews take the discovery parameters of the REST API, same rules. */
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

let id = 1;
async function call(name: string, args: Record<string, unknown>) {
  const answer = await postMcp(server, { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } }, { key });
  return (answer.json as { result: { isError?: boolean; structuredContent?: any; content: { text: string }[] } }).result;
}

test("search_brokers: near a postal code, nearest first, with distances and facets", async () => {
  const result = await call("search_brokers", { near: "M5V 3L9", sort: "distance", facets: "city,language", limit: 5 });
  expect(result.isError).toBeFalsy();
  const { data, facets, pagination } = result.structuredContent;
  expect(data.length).toBeGreaterThan(0);
  const distances = data.map((b: { distanceKm: number }) => b.distanceKm);
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  expect(distances.every((d: number) => d <= 25)).toBe(true);
  expect(facets.city.map((f: { value: string }) => f.value)).toContain("Toronto");
  expect(facets.language.find((f: { value: string }) => f.value === "English").count).toBeLessThanOrEqual(pagination.total);
});

test("search_brokers: same answer as REST for the same filters", async () => {
  const args = { query: "insurance", language: "fr", minRating: 3.5, sort: "relevance", limit: 10 };
  const tool = (await call("search_brokers", args)).structuredContent;
  const rest = await (await server.request("/api/v1/brokers?q=insurance&language=fr&minRating=3.5&sort=relevance&limit=10", { key })).json();
  expect(tool).toEqual(rest);
});

test.each([
  [{ sort: "distance" }, "sort: distance needs near"],
  [{ near: "XYZ" }, "near: must be a Canadian postal code"],
  [{ facets: "secret" }, 'facets: "secret" is not a facet'],
  [{ minRating: 6 }, "minRating: must be a number from 0 to 5"],
])("search_brokers with %p is a tool error naming the argument", async (args, message) => {
  const result = await call("search_brokers", args);
  expect(result.isError).toBe(true);
  expect(result.content[0]!.text).toContain(message);
});

test("get_reviews: sort and star filter", async () => {
  const { data } = (await call("search_brokers", { sort: "reviews", limit: 1 })).structuredContent;
  const slug = data[0].slug;
  const highest = (await call("get_reviews", { slug, sort: "highest", limit: 100 })).structuredContent;
  const ratings = highest.data.map((r: { rating: number }) => r.rating);
  expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  const fives = (await call("get_reviews", { slug, rating: 5 })).structuredContent;
  expect(fives.data.every((r: { rating: number }) => r.rating === 5)).toBe(true);
  expect((await call("get_reviews", { slug, rating: 0 })).isError).toBe(true);
});
