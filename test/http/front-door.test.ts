import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_LOGGED_CHARS, createLogger, scrubSecrets } from "../../src/log.ts";
import { MAX_TARGET_CHARS } from "../../src/adapters/http/requestTarget.ts";
import { rawRequest } from "../support/rawHttp.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const lines: string[] = [];
let server: TestServer;
let key: string;
/** A page's key: a server key sent with an Origin is refused before its body is read (server_key_in_browser). */
let embedKey: string;
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("info", (line) => lines.push(line)) } });
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  embedKey = await server.createKey({ origins: ["https://partner.example"], rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

/** The audit's request: a Host that makes no URL, and a long path the old scrubber choked on. */
const HOSTILE_PATH = `/brk_/${"a".repeat(15_000)}`;

describe("a request target that makes no URL", () => {
  test("Host a:99999999 with a long path is a 400 JSON {error} with a request id", async () => {
    const res = await rawRequest(server.url, `GET ${HOSTILE_PATH} HTTP/1.1\r\nHost: a:99999999\r\nX-Request-Id: bad-host-1`);
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.headers["x-request-id"]).toBe("bad-host-1");
    const body = JSON.parse(res.body) as { error: string };
    expect(body.error).toContain("Host");
    expect(res.body).not.toContain("aaaa");
  });

  test("the log has the request line and neither the URL nor its path", async () => {
    await rawRequest(server.url, `GET /brk_/secret-path-${"b".repeat(5_000)}?q=x HTTP/1.1\r\nHost: a:99999999\r\nX-Request-Id: bad-host-2`);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === "bad-host-2");
    expect(line).toMatchObject({ msg: "request", route: "(bad request target)", status: 400 });
    const all = lines.join("\n");
    expect(all).not.toContain("secret-path");
    expect(all).not.toContain("a:99999999");
    expect(lines.filter((l) => JSON.parse(l).level === "error")).toEqual([]);
  });

  test("the server still serves after a burst of them", async () => {
    await Promise.all(Array.from({ length: 10 }, () => rawRequest(server.url, `GET ${HOSTILE_PATH} HTTP/1.1\r\nHost: a:99999999`)));
    expect((await server.request("/healthz")).status).toBe(200);
  });
});

describe("limits we set below the runtime's", () => {
  test(`a path and query over ${MAX_TARGET_CHARS / 1024} KiB is a 414 JSON, with CORS on embed paths`, async () => {
    const res = await server.request(`/api/v1/embed/brokers?x=${"a".repeat(MAX_TARGET_CHARS)}`, { key: embedKey, headers: { Origin: "https://partner.example" } });
    expect(res.status).toBe(414);
    expect(((await res.json()) as { error: string }).error).toContain("KiB");
    expect(res.headers.get("access-control-allow-origin")).toBe("https://partner.example");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a target just under the limit is served", async () => {
    const res = await server.request(`/api/v1/brokers?x=${"a".repeat(MAX_TARGET_CHARS - 100)}`, { key });
    expect(res.status).toBe(200);
  });

  test("a declared body of 2 MiB on an embed path is a JSON 413 with CORS (the runtime's empty 413 starts above 8 MiB)", async () => {
    const body = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    const res = await server.request("/api/v1/embed/leads", {
      method: "POST",
      key: embedKey,
      headers: { "Content-Type": "application/json", Origin: "https://partner.example" },
      body,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toContain("64 KiB");
    expect(res.headers.get("access-control-allow-origin")).toBe("https://partner.example");
  });

  test("past about 16 KB of request line and headers the runtime answers an empty 431 (documented, not ours to shape)", async () => {
    const res = await server.request(`/api/v1/brokers?x=${"a".repeat(20_000)}`, { key });
    expect(res.status).toBe(431);
    expect(await res.text()).toBe("");
  });
});

describe("the probes", () => {
  for (const path of ["/healthz", "/readyz"]) {
    test(`${path}: GET and HEAD answer, any other method is a 405 with Allow`, async () => {
      expect((await server.request(path)).status).toBe(200);
      expect((await server.request(path, { method: "HEAD" })).status).toBe(200);
      for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
        const res = await server.request(path, { method });
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("GET, HEAD");
        expect(((await res.json()) as { error: string }).error).toContain(method);
      }
    });
  }
});

describe("the log scrubber", () => {
  test("cuts long strings before scrubbing them", () => {
    const logged: string[] = [];
    createLogger("info", (line) => logged.push(line)).error("x", { error: `jane@example.com ${"a.".repeat(20_000)}` });
    const field = String(JSON.parse(logged[0]!).error);
    expect(field.length).toBeLessThan(MAX_LOGGED_CHARS + 40);
    expect(field).toContain("[email redacted]");
    expect(field).toContain("[cut ");
  });

  test("still masks keys and addresses in ordinary text", () => {
    expect(scrubSecrets("mail bob.smith+x@example.co.uk. key brk_abcdefghijkl, xbrk_abcdefghijk")).toBe(
      "mail [email redacted] key brk_[redacted], xbrk_[redacted]",
    );
    expect(scrubSecrets("user@localhost a@b @x.com")).toBe("user@localhost a@b @x.com");
  });
});
