import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
  key = await server.createKey();
});
afterAll(() => server.close());

test("every response carries a fresh X-Request-Id when the client sends none", async () => {
  const paths = ["/healthz", "/readyz", "/metrics", "/docs", "/api/v1/openapi.json", "/api/v1/brokers", "/api/v1/nope", "/nope", "/trpc/brokers.search"];
  const ids = new Set<string>();
  for (const path of paths) {
    const res = await server.request(path);
    const id = res.headers.get("x-request-id");
    expect(id, path).toMatch(UUID);
    ids.add(id!);
  }
  expect(ids.size).toBe(paths.length);
});

test("a sane client id is echoed, on success and on error", async () => {
  for (const id of ["abc-123", "req_01HZX.9:retry-2", "a".repeat(128)]) {
    const ok = await server.request("/api/v1/brokers", { key, headers: { "X-Request-Id": id } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe(id);
    const refused = await server.request("/api/v1/brokers", { headers: { "X-Request-Id": id } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe(id);
    expect(((await refused.json()) as { requestId: string }).requestId).toBe(id);
  }
});

test("an insane client id is replaced by a new one", async () => {
  for (const id of ["a".repeat(129), "has space", "<script>", "semi;colon", "ünicode", "a/b"]) {
    const res = await server.request("/healthz", { headers: { "X-Request-Id": id } });
    expect(res.headers.get("x-request-id"), id).toMatch(UUID);
  }
});

test("an error body's requestId is its X-Request-Id, on every kind of refusal", async () => {
  const refusals = [
    server.request("/api/v1/brokers"), // admission
    server.request("/api/v1/brokers?limit=0", { key }), // the procedure
    server.request("/api/v1/nope", { key }), // the REST router
    server.request("/nope"), // the front door
    server.request("/healthz", { method: "POST" }), // the read-only pages
  ];
  for (const res of await Promise.all(refusals)) {
    const body = (await res.json()) as { requestId: string };
    expect(body.requestId).toMatch(UUID);
    expect(body.requestId).toBe(res.headers.get("x-request-id")!);
  }
});
