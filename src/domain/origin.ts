/**
 * The canonical form of a browser origin ("https://Partner.example:443" → "https://partner.example"),
 * or undefined when the text is not a bare http(s) origin (no path, query or credentials).
 */
export function normalizeOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return undefined;
  if (/\/./.test(text.trim().replace(/^https?:\/\//i, ""))) return undefined;
  return url.origin;
}
