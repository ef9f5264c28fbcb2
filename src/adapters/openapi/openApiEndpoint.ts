import type { RestRoute } from "../rest/restRoute.ts";
import { buildOpenApiDocument, type OpenApiDocument } from "./openApiDocument.ts";

/**
 * The document for a given public URL, built on first use. Only the last URL is kept: the
 * URL comes from the Host header when PUBLIC_URL is unset, and a cache keyed on what clients
 * send would be theirs to fill.
 */
export function createOpenApiSource(routes: readonly RestRoute[]) {
  let last: { url: string; document: OpenApiDocument; json: string } | undefined;
  return function openApiFor(serverUrl: string): { document: OpenApiDocument; json: string } {
    if (last?.url !== serverUrl) {
      const document = buildOpenApiDocument(routes, serverUrl);
      last = { url: serverUrl, document, json: JSON.stringify(document) };
    }
    return last;
  };
}
