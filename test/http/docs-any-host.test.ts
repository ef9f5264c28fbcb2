import { afterAll, beforeAll, expect, test } from "bun:test";
import { renderDocsPage } from "../../src/adapters/docs/docsPage.ts";
import { buildOpenApiDocument } from "../../src/adapters/openapi/openApiDocument.ts";
import { createOpenApiSource } from "../../src/adapters/openapi/openApiEndpoint.ts";
import { restRoutes } from "../../src/adapters/rest/restRoutes.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(() => server.close());

test("the document and page for any base URL are exactly what a build for it would give, hostile text included", () => {
  const source = createOpenApiSource(restRoutes);
  for (const url of ["http://localhost:3000", "https://directory.example", `http://x"><script>alert(1)</script>`, "http://a&b'c\\d"]) {
    expect(source.json(url)).toBe(JSON.stringify(buildOpenApiDocument(restRoutes, url)));
    expect(source.docsHtml(url)).toBe(renderDocsPage(buildOpenApiDocument(restRoutes, url)));
  }
});

test("a rotated Host gets its own base URL in /docs and the OpenAPI document", async () => {
  for (let i = 0; i < 20; i++) {
    const host = `h${i}.example:8080`;
    const doc = (await (await server.request("/api/v1/openapi.json", { headers: { Host: host } })).json()) as { servers: { url: string }[] };
    expect(doc.servers).toEqual([{ url: `http://${host}` }]);
    expect(await (await server.request("/docs", { headers: { Host: host } })).text()).toContain(`<code>http://${host}</code>`);
  }
});
