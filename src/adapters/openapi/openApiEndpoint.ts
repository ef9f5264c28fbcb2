import type { RestRoute } from "../rest/restRoute.ts";
import { renderDocsPage } from "../docs/docsPage.ts";
import { escapeHtml } from "../docs/html.ts";
import { buildOpenApiDocument } from "./openApiDocument.ts";

/**
 * Stands for the base URL while the document and the page are built: letters and dots only,
 * so JSON and HTML escaping leave it as it is and it can be found again in the output.
 */
const BASE_URL_SLOT = "https://base-url-slot.invalid";

/**
 * The OpenAPI document and the /docs page, built once (3–4 ms) with a slot for the base URL and
 * filled in per request (a join). The base URL comes from the Host header when PUBLIC_URL is
 * unset, so a cache keyed on it would be the clients' to fill and a rebuild per new Host theirs
 * to trigger; with one template neither happens, whatever Host is sent.
 */
export function createOpenApiSource(routes: readonly RestRoute[]) {
  let template: { json: string[]; html: string[] } | undefined;
  const parts = () => {
    if (!template) {
      const document = buildOpenApiDocument(routes, BASE_URL_SLOT);
      template = { json: JSON.stringify(document).split(BASE_URL_SLOT), html: renderDocsPage(document).split(BASE_URL_SLOT) };
    }
    return template;
  };
  return {
    /** The OpenAPI 3.1 document as JSON text, for this base URL. */
    json: (baseUrl: string) => parts().json.join(JSON.stringify(baseUrl).slice(1, -1)),
    /** The /docs page, for this base URL (the page shows it without a trailing slash). */
    docsHtml: (baseUrl: string) => parts().html.join(escapeHtml(baseUrl.replace(/\/$/, ""))),
  };
}
