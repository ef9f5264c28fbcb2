import { gzipSync } from "bun";
import type { ErrorAsker } from "../http/json.ts";
import { readOnlyRefusal } from "../http/methodRefusal.ts";

/**
 * GET /widget.js: the widget bundle, public (no key: the key travels in the partner's
 * markup and is checked by the embed API, not here), cacheable for five minutes and
 * revalidated by a strong ETag, readable from any origin, gzipped when the client accepts it.
 * The console's bundle is served the same way, but for its own origin only (`sameOriginOnly`).
 */
export function widgetAssetHandler(code: string, options: { path?: string; sameOriginOnly?: boolean } = {}): (request: Request, asker: ErrorAsker) => Response {
  const identity = new TextEncoder().encode(code);
  const gzipped = gzipSync(identity, { level: 9 });
  const hash = new Bun.CryptoHasher("sha256").update(identity).digest("base64url").slice(0, 32);
  // One strong validator per representation, as the two bodies differ byte for byte.
  const etags = { identity: `"${hash}"`, gzip: `"${hash}-gz"` };

  const baseHeaders: Record<string, string> = options.sameOriginOnly
    ? { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache", "Cross-Origin-Resource-Policy": "same-origin", "X-Content-Type-Options": "nosniff", Vary: "Accept-Encoding" }
    : {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=300",
        "Access-Control-Allow-Origin": "*",
        // Lets pages that isolate themselves (COEP) still load the script.
        "Cross-Origin-Resource-Policy": "cross-origin",
        "X-Content-Type-Options": "nosniff",
        Vary: "Accept-Encoding",
      };

  return (request, asker) => {
    const refusal = readOnlyRefusal(request, asker, options.path ?? "/widget.js");
    if (refusal) return refusal;
    const gzip = acceptsGzip(request.headers.get("Accept-Encoding"));
    const etag = gzip ? etags.gzip : etags.identity;
    if (matchesIfNoneMatch(request.headers.get("If-None-Match"), [etags.identity, etags.gzip])) {
      return new Response(null, { status: 304, headers: { ...baseHeaders, ETag: etag } });
    }
    const body = gzip ? gzipped : identity;
    const headers: Record<string, string> = { ...baseHeaders, ETag: etag, "Content-Length": String(body.byteLength) };
    if (gzip) headers["Content-Encoding"] = "gzip";
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
  };
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
function matchesIfNoneMatch(header: string | null, current: string[]): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => current.includes(tag.trim().replace(/^W\//, "")));
}

function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return coding === "gzip" && (q === undefined || Number(q.slice(2)) > 0);
  });
}
