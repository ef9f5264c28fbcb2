import { afterAll, beforeAll, expect, test } from "bun:test";
import { z } from "zod";
import { renderDocsPage } from "../../src/adapters/docs/docsPage.ts";
import { buildOpenApiDocument } from "../../src/adapters/openapi/openApiDocument.ts";
import type { RestRoute } from "../../src/adapters/rest/restRoute.ts";
import { restRoutes } from "../../src/adapters/rest/restRoutes.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let response: Response;
let html: string;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
  response = await server.request("/docs");
  html = await response.text();
});
afterAll(() => server.close());

test("GET /docs is a self-contained HTML page: no scripts, nothing loaded from elsewhere", () => {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const csp = response.headers.get("content-security-policy")!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//i);
  expect(html).not.toMatch(/\sstyle="/i); // the CSP allows only the hashed style sheet
});

test("the style sheet's hash in the CSP matches the page's <style>", async () => {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  const digest = new Bun.CryptoHasher("sha256").update(style).digest("base64");
  expect(response.headers.get("content-security-policy")).toContain(`'sha256-${digest}'`);
});

test("every REST route appears with its method, path, scope and fields", () => {
  for (const route of restRoutes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    expect(html).toContain(`<span class="method ${route.method}">${route.method}</span> <code>${path}</code>`);
    expect(html).toContain(`<code>${route.scope}</code>`);
  }
  expect(html).toContain("<code>insuranceType</code>");
  expect(html).toContain("integer (≥ 1, ≤ 100, default 20)");
  expect(html).toContain('href="/api/v1/openapi.json"');
});

test("/docs/ is the same page", async () => {
  const res = await server.request("/docs/");
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(html);
});

test("text from the document is escaped, never markup", () => {
  const hostile: RestRoute = {
    method: "GET",
    path: "/api/v1/things/:id",
    surface: "rest",
    procedure: "brokers.get",
    scope: "brokers:read",
    directoryRead: false,
    idempotent: false,
    summary: `<img src=x onerror=alert(1)> & "quotes"`,
    input: z.object({ id: z.string().describe("<script>alert(2)</script>") }),
    output: z.object({ "<b>name</b>": z.string() }),
    envelope: "data",
    call: async () => ({}),
  };
  const page = renderDocsPage(buildOpenApiDocument([hostile], `http://x"><script>alert(3)</script>`));
  expect(page).not.toContain("<img");
  expect(page).not.toMatch(/<script/i);
  expect(page).not.toContain("<b>");
  expect(page).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;");
  expect(page).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
});
