import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger, scrubSecrets } from "../../src/log.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const lines: string[] = [];
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("info", (line) => lines.push(line)) } });
  key = await server.createKey();
});
afterAll(() => server.close());

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const requestLine = (requestId: string) => parsed().find((l) => l.msg === "request" && l.requestId === requestId);

test("one JSON line per request: method, route pattern, status, ms and key id", async () => {
  const res = await server.request("/api/v1/brokers?province=ON&limit=1", { key, headers: { "X-Request-Id": "log-test-1" } });
  expect(res.status).toBe(200);
  const line = requestLine("log-test-1")!;
  const keyId = (await server.app.services.keys.list()).find((k) => key.startsWith(k.displayPrefix))!.id;
  expect(line).toMatchObject({ level: "info", msg: "request", method: "GET", route: "/api/v1/brokers", status: 200, keyId });
  expect(typeof line.ms).toBe("number");
  expect(Date.parse(String(line.time))).not.toBeNaN();
  expect(Object.keys(line).sort()).toEqual(["keyId", "level", "method", "ms", "msg", "requestId", "route", "status", "time"]);
});

test("neither the key, the query string nor personal data in the path reach the log", async () => {
  await server.request("/api/v1/brokers?q=jane.doe%40example.com&city=Toronto", { key, headers: { "X-Request-Id": "log-test-2" } });
  await server.request(`/api/v1/brokers/${encodeURIComponent("jane.doe@example.com")}`, { key, headers: { "X-Request-Id": "log-test-3" } });
  await server.request("/api/v1/brokers", { headers: { "X-Request-Id": "log-test-4", Authorization: `Bearer ${key}x` } });
  const all = lines.join("\n");
  expect(all).not.toContain(key);
  expect(all).not.toContain("jane");
  expect(all).not.toContain("example.com");
  expect(all).not.toContain("Toronto");
  expect(requestLine("log-test-3")).toMatchObject({ route: "/api/v1/brokers/:slug", status: 404 });
  expect(requestLine("log-test-4")).toMatchObject({ route: "/api/v1/brokers", status: 401 });
});

test("unmatched paths are logged under a fixed label, not the raw path", async () => {
  await server.request("/wp-admin/jane@example.com", { headers: { "X-Request-Id": "log-test-5" } });
  expect(requestLine("log-test-5")).toMatchObject({ route: "(unmatched)", status: 404 });
  expect(lines.join("\n")).not.toContain("wp-admin");
});

test("the level filters lines: warn drops info, silent drops everything", () => {
  const seen: string[] = [];
  const warn = createLogger("warn", (line) => seen.push(line));
  warn.info("hidden");
  warn.debug("hidden");
  warn.warn("shown");
  warn.error("shown too");
  expect(seen.map((l) => JSON.parse(l).msg)).toEqual(["shown", "shown too"]);
  const silent = createLogger("silent", (line) => seen.push(line));
  silent.error("nothing");
  expect(seen.length).toBe(2);
});

test("errors go to stderr: the writer is told which lines are errors", () => {
  const routed: [string, boolean][] = [];
  const log = createLogger("debug", (line, isError) => routed.push([JSON.parse(line).level, isError]));
  log.debug("a");
  log.error("b");
  expect(routed).toEqual([["debug", false], ["error", true]]);
});

test("keys and email addresses that slip into a message or field are masked", () => {
  const seen: string[] = [];
  createLogger("info", (line) => seen.push(line)).info("failed for brk_AbCdEf0123456789xyz", { detail: "lead jane.doe+x@example.co.uk" });
  expect(seen[0]).not.toContain("AbCdEf0123456789xyz");
  expect(seen[0]).not.toContain("jane.doe");
  expect(scrubSecrets("at f (/app/node_modules/@trpc/server/dist/x.mjs:1:2)")).toBe("at f (/app/node_modules/@trpc/server/dist/x.mjs:1:2)");
});
