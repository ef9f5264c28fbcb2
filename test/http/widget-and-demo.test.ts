import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

test("GET /widget.js serves the bundle without a key, with caching headers", async () => {
  const res = await server.request("/widget.js");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  expect(res.headers.get("cache-control")).toContain("max-age");
  const etag = res.headers.get("etag");
  expect(etag).toBeTruthy();
  const code = await res.text();
  expect(code).toContain("broker-quote-form");
  const again = await server.request("/widget.js", { headers: { "If-None-Match": etag! } });
  expect(again.status).toBe(304);
});

test("GET /demo shows the three widgets with an embed key made for this server's origin", async () => {
  const res = await server.request("/demo");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/html");
  const html = await res.text();
  const key = /brk_[A-Za-z0-9_-]{43}/.exec(html)?.[0];
  expect(key).toBeDefined();
  for (const type of ["quote", "directory", "reviews"]) expect(html).toContain(type);
  const stored = (await server.app.services.keys.list()).find((k) => k.name.startsWith("demo page"));
  expect(stored?.origins).toContain(server.url.replace("127.0.0.1", "127.0.0.1"));
  expect(stored?.revokedAt).toBeNull();
});

test("/demo says beside its snippet that the key works on this origin only, dies with the process, and where to get one", async () => {
  const html = await (await server.request("/demo")).text();
  const note = /<p class="snippet-note"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "";
  expect(html.indexOf('class="snippet-note"')).toBeGreaterThan(html.indexOf("<pre>"));
  expect(note).toContain("only works here");
  expect(note).toContain(new URL(server.url).origin);
  expect(note).toContain("revoked when this server process stops");
  expect(note).toContain("Copy embed code");
  expect(note).toContain("--origins");
});

test("the demo key is an embed key: refused on server paths", async () => {
  const html = await (await server.request("/demo")).text();
  const key = /brk_[A-Za-z0-9_-]{43}/.exec(html)![0];
  const res = await server.request("/api/v1/brokers", { key, headers: { Origin: server.url } });
  expect(res.status).toBe(403);
});

test("/demo reflects nothing unescaped from the query string", async () => {
  const html = await (await server.request(`/demo?key=${encodeURIComponent('"><script>alert(1)</script>')}&broker=%3Cimg%3E`)).text();
  expect(html).not.toContain("<script>alert(1)</script>");
  expect(html).not.toContain("<img>");
});
