import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(() => server.close());

test("GET /healthz answers without a key", async () => {
  const res = await server.request("/healthz");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
  expect(res.headers.get("x-request-id")).toBeTruthy();
});
