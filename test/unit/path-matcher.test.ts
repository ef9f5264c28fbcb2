import { describe, expect, test } from "bun:test";
import { compilePaths, matchPath } from "../../src/adapters/rest/pathMatcher.ts";

const routes = compilePaths(
  [
    { path: "/api/v1/brokers", value: "list" },
    { path: "/api/v1/brokers/:slug", value: "detail" },
    { path: "/api/v1/reviews/:brokerId", value: "reviews" },
    { path: "/api/v1/leads/:leadId", value: "lead-get" },
    { path: "/api/v1/leads/:leadId", value: "lead-patch" },
    { path: "/api/v1/directory/brokers/:id/reviews", value: "directory-reviews" },
  ].map((r) => ({ path: r.path, value: r.value })),
);
const match = (path: string) => matchPath(routes, path).map((m) => [m.value, m.params]);

describe("matchPath", () => {
  test("static segments must all match; parameters take one decoded segment", () => {
    expect(match("/api/v1/brokers")).toEqual([["list", {}]]);
    expect(match("/api/v1/brokers/maple-leaf")).toEqual([["detail", { slug: "maple-leaf" }]]);
    expect(match("/api/v1/brokers/caf%C3%A9")).toEqual([["detail", { slug: "café" }]]);
    expect(match("/api/v1/reviews/42")).toEqual([["reviews", { brokerId: "42" }]]);
    expect(match("/api/v1/directory/brokers/7/reviews")).toEqual([["directory-reviews", { id: "7" }]]);
    expect(match("/api/v1/directory/brokers/7/offices")).toEqual([]);
    expect(match("/api/v2/brokers/x")).toEqual([]);
  });

  test("every route of the same pattern matches (one per method), a trailing slash is the same path", () => {
    expect(match("/api/v1/leads/abc/")).toEqual([
      ["lead-get", { leadId: "abc" }],
      ["lead-patch", { leadId: "abc" }],
    ]);
    expect(match("/api/v1/brokers/")).toEqual([["list", {}]]);
  });

  test("an empty or undecodable parameter matches nothing", () => {
    expect(match("/api/v1/brokers//")).toEqual([]);
    expect(match("/api/v1/brokers/%E0%A4%A")).toEqual([]);
    expect(match("/api/v1/brokers/%")).toEqual([]);
  });
});
