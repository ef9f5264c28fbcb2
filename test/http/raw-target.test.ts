import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_PATH_SEGMENTS } from "../../src/adapters/http/rawTarget.ts";
import { createLogger } from "../../src/log.ts";
import { rawRequest } from "../support/rawHttp.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

// Raw sockets throughout: fetch() and browsers resolve these paths before sending them.
const lines: string[] = [];
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("info", (line) => lines.push(line)) } });
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

const send = (target: string, method = "GET") => rawRequest(server.url, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}`);

/** Paths a prefix-filtering proxy would pass as /api/v1/brokers…, that Bun resolves to another endpoint. */
const RESOLVED_ELSEWHERE = [
  "/api/v1/brokers\\..\\keys",
  "/api/v1/brokers/../keys",
  "/api/v1/brokers/%2e%2e/keys",
  "/api/v1/brokers/%2E%2e/keys",
  "/api/v1/brokers/.%2e/keys",
  "/api/v1/brokers/./../keys",
  "/api/v1/brokers/%5c..%5ckeys",
  "/api/v1/brokers/x/..//../keys",
  "/api/v1/brokers//../keys",
  "/api/v1/brokers/../keys/",
  "/api/v1/brokers/../keys?limit=1",
  "/healthz/..",
];

describe("a path Bun would resolve is refused, not resolved", () => {
  for (const target of RESOLVED_ELSEWHERE) {
    test(`${target} is a 400 JSON {error}`, async () => {
      const res = await send(target);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toContain("application/json");
      expect((JSON.parse(res.body) as { error: string }).error).toContain("refused rather than resolved");
      expect(res.body).not.toContain('"data"');
    });
  }

  test("encoded slashes, backslashes and NULs in a segment are refused too", async () => {
    for (const target of ["/api/v1/brokers/a%2fb", "/api/v1/brokers/a%5Cb", "/api/v1/brokers/a%00b", "/api/v1/brokers/a\\b"]) {
      expect({ target, status: (await send(target)).status }).toEqual({ target, status: 400 });
    }
  });

  test("the refusal is logged as a bad request target, without the path", async () => {
    await rawRequest(server.url, "GET /api/v1/brokers/secret-slug/../keys HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: raw-target-1");
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === "raw-target-1");
    expect(line).toMatchObject({ route: "(bad request target)", status: 400 });
    expect(lines.join("\n")).not.toContain("secret-slug");
  });
});

describe("ordinary paths are served as before", () => {
  test.each([
    ["/api/v1/brokers?limit=1", 200],
    ["/api/v1/brokers/", 200],
    ["/api/v1/brokers?q=../..\\x", 200],
    ["/api/v1/brokers/no-such-slug", 404],
    ["/api/v1/brokers/a.b", 404],
    ["/api/v1/brokers/...", 404],
    ["/healthz", 200],
    ["/docs/", 200],
    ["/", 404],
    [`/a${"/b".repeat(MAX_PATH_SEGMENTS - 1)}`, 404],
  ])("%s answers %i", async (target, status) => {
    expect((await send(target)).status).toBe(status);
  });

  test(`more than ${MAX_PATH_SEGMENTS} segments, or an empty one, is a 400`, async () => {
    expect((await send(`/a${"/b".repeat(MAX_PATH_SEGMENTS)}`)).status).toBe(400);
    expect((await send("//healthz")).status).toBe(400);
  });

  test("HEAD and OPTIONS are refused the same way", async () => {
    expect((await send("/api/v1/brokers/../keys", "HEAD")).status).toBe(400);
    expect((await send("/api/v1/embed/brokers/../quotes", "OPTIONS")).status).toBe(400);
  });
});
