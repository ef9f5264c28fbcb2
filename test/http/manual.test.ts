import { afterAll, beforeAll, expect, test } from "bun:test";
import { capabilityMarkdown } from "../../src/adapters/capabilities.ts";
import { MANUAL_PAGES } from "../../src/adapters/docs/manualPages.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** The manual at /docs/manual: the index and every page, rendered from the Markdown beside the docs adapter. */
let server: TestServer;
const pages = new Map<string, string>();
beforeAll(async () => {
  server = await startTestServer({ demo: false });
  for (const name of ["", ...MANUAL_PAGES.map((p) => p.name)]) {
    const res = await server.request(`/docs/manual${name ? `/${name}` : ""}`);
    expect({ name, status: res.status, type: res.headers.get("content-type") }).toEqual({ name, status: 200, type: "text/html; charset=utf-8" });
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    pages.set(name, await res.text());
  }
});
afterAll(() => server.close());

test("every page is self-contained: no scripts, nothing loaded from elsewhere, no style attributes", () => {
  for (const [name, html] of pages) {
    expect({ name, script: /<script/i.test(html) }).toEqual({ name, script: false });
    expect({ name, remote: /\s(src)="(https?:)?\/\//i.test(html) }).toEqual({ name, remote: false });
    expect({ name, style: /\sstyle="/i.test(html) }).toEqual({ name, style: false });
  }
});

test("the index links every page, and every page's title is its first heading", () => {
  const index = pages.get("")!;
  for (const page of MANUAL_PAGES) expect(index).toContain(`href="/docs/manual/${page.name}"`);
  expect(pages.get("security")).toContain('<h1 id="security">Security</h1>');
});

test("links between pages and to headings land on a page and a heading that exist", () => {
  const broken: string[] = [];
  let checked = 0;
  const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
  for (const [name, html] of pages) {
    for (const [, target, anchor] of html.matchAll(/href="([a-z-]*)(?:#([^"]*))?"/g)) {
      const page = target === "" ? name : target!;
      checked++;
      if (!pages.has(page)) broken.push(`${name} → ${target}`);
      else if (anchor && !ids(pages.get(page)!).has(anchor)) broken.push(`${name} → ${page}#${anchor}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(20);
});

test("the API page shows the capability table the code derives", () => {
  const api = pages.get("api")!;
  expect(api).not.toContain("capability-table");
  const firstRow = capabilityMarkdown().split("\n")[2]!; // | `brokers.search` | `brokers:read` | …
  const procedure = /`([a-z.]+)`/.exec(firstRow)![1]!;
  expect(api).toContain(`<td><code>${procedure}</code></td>`);
  expect(api).toContain("<code>GET /api/v1/brokers</code>");
});

test("an unknown page is a JSON 404, and a path under it is too (no file is read from a request path)", async () => {
  for (const path of ["/docs/manual/nope", "/docs/manual/api.md", "/docs/manual/api/x", "/docs/manual/..%2fREADME"]) {
    const res = await server.request(path);
    expect({ path, status: res.status < 500 && res.status >= 400 }).toEqual({ path, status: true });
    expect(res.headers.get("content-type")).toContain("application/json");
  }
});

test("the pages take GET and HEAD only: any other method is a 405 with Allow", async () => {
  for (const path of ["/docs/manual", "/docs/manual/api"]) {
    const res = await server.request(path, { method: "POST", body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    const head = await server.request(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  }
});

test("the API reference at /docs links the manual", async () => {
  const res = await server.request("/docs");
  expect(await res.text()).toContain('href="/docs/manual"');
});
