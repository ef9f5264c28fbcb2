import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
  key = await server.createKey();
});
afterAll(() => server.close());

test.each([["POST", "/api/v1/brokers"], ["DELETE", "/api/v1/brokers/some-slug"], ["PUT", "/api/v1/reviews/1"]])(
  "%s %s is a 405 JSON error with Allow",
  async (method, path) => {
    const res = await server.request(path, { method, key });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(((await res.json()) as { error: string }).error).toContain(`${method} is not allowed`);
  },
);

test.each([["/api/v1/nothing"], ["/api/v1/brokers/a/b"], ["/nowhere"], ["/api/v2/brokers"], ["/"]])("%s is a 404 JSON error", async (path) => {
  const res = await server.request(path, { key });
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toStartWith("application/json");
  const body = (await res.json()) as { error: string; code: string };
  expect(Object.keys(body)).toEqual(["error", "code", "requestId", "docs"]);
  expect(body.code).toBe("not_found");
});

test("errors never carry stack traces or SQL", async () => {
  const probes = ["/api/v1/brokers?q=%22%27%29%28*", "/api/v1/brokers?page=abc", "/api/v1/brokers/%27%20OR%201=1", "/api/v1/reviews/1e400"];
  for (const path of probes) {
    const text = await (await server.request(path, { key })).text();
    expect(text).not.toMatch(/at .*\.ts:\d+|SQLITE|sqlite|SELECT|stack/i);
  }
});

test("an empty directory answers an empty list, not an error", async () => {
  const res = await server.request("/api/v1/brokers", { key });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
});
