import type { Services } from "../../services.ts";
import { unknownSlugMessage } from "../../router/brokers/publishedBroker.ts";
import { BROKER_PHOTO_ROUTE } from "../../router/embed/photoUrl.ts";
import { fnv1a } from "../../domain/rating/carrier.ts";
import { errorResponse, type ErrorAsker } from "../http/json.ts";
import { readOnlyRefusal } from "../http/methodRefusal.ts";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** Up to two initials from the name's words that start with a letter ("Beauchamp & Fils" → "BF"). */
export function monogramOf(name: string): string {
  const letters = name
    .split(/[\s\-–—&/,.]+/)
    .map((word) => Array.from(word)[0] ?? "")
    .filter((first) => /\p{L}/u.test(first));
  return letters.slice(0, 2).join("").toLocaleUpperCase("en-CA") || "?";
}

export function monogramSvg(name: string, slug: string): string {
  // Hue from the slug, so a broker keeps its colour; dark enough for white text (WCAG AA).
  const hue = fnv1a(slug) % 360;
  const label = escapeXml(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<rect width="96" height="96" rx="48" fill="hsl(${hue}, 45%, 32%)"/>` +
    `<text x="48" y="48" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" ` +
    `font-size="38" font-weight="600" fill="#ffffff">${escapeXml(monogramOf(name))}</text></svg>`
  );
}

/**
 * GET /api/v1/embed/brokers/{slug}/photo.svg: a published broker's picture, an SVG monogram
 * drawn from its name. Public, because an <img> cannot send the key; it reveals nothing the
 * embed list does not (published brokers only). Every piece of text is XML-escaped, the
 * document carries no script and is served with a CSP that forbids any, so even opened
 * directly it cannot run code. The path is declared in src/router/embed/photoUrl.ts.
 */
export function serveBrokerPhoto(services: Services, request: Request, asker: ErrorAsker, slug: string): Response {
  const refusal = readOnlyRefusal(request, asker, BROKER_PHOTO_ROUTE);
  if (refusal) return refusal;
  const broker = slug.length <= 200 ? services.brokers.findBySlug(slug) : undefined;
  if (!broker) return errorResponse(asker, "broker_not_found", unknownSlugMessage(slug));

  const svg = monogramSvg(broker.name, broker.slug);
  const etag = `"${new Bun.CryptoHasher("sha256").update(svg).digest("base64url").slice(0, 27)}"`;
  const headers: Record<string, string> = {
    "Content-Type": "image/svg+xml; charset=utf-8",
    // A day in caches; a renamed broker shows its new initials after revalidation at most.
    "Cache-Control": "public, max-age=86400",
    ETag: etag,
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "X-Content-Type-Options": "nosniff",
    // Partner pages that isolate themselves (COEP) may still show it.
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === "HEAD" ? null : svg, { status: 200, headers });
}
