import { createHash } from "node:crypto";

/**
 * The look of the console's server-made pages (sign-in help, refused links): one constant
 * stylesheet, allowed by its hash so the policy needs no 'unsafe-inline'. The app itself
 * styles its shadow roots with constructed stylesheets (Lit), which CSP does not govern.
 */
export const PAGE_CSS =
  ":root{color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5}" +
  "body{margin:0;padding:2rem 1rem;background:#f3f5f7;color:#1b1f24}" +
  "main{max-width:40rem;margin:0 auto;background:#fff;padding:1.5rem 2rem;border-radius:10px;border:1px solid #767f8a}" +
  "code{background:#f3f5f7;padding:.1rem .3rem;border-radius:4px;word-break:break-all}a{color:#0a58a8}" +
  "@media (prefers-color-scheme:dark){body{background:#15181c;color:#e9ecef}main{background:#20252b;border-color:#7d8792}code{background:#15181c}a{color:#7ab8ff}}";

const PAGE_CSS_HASH = createHash("sha256").update(PAGE_CSS).digest("base64");

/**
 * Every console response carries these: scripts only from this origin and never inline, no
 * framing, no Referer (the sign-in URL holds a token), nothing kept by caches.
 */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'sha256-${PAGE_CSS_HASH}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; "),
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * The sign-in button's page: its form must carry our Origin (under no-referrer a browser sends
 * `Origin: null` with a form POST), and strict-origin still never sends the page's URL, which
 * holds the token, anywhere: only the origin, and only over https to https.
 */
export const SIGN_IN_REFERRER_POLICY = "strict-origin";

/** Adds the console's headers to a response (its own Cache-Control included); a page that set its own Referrer-Policy keeps it. */
export function withConsoleHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) {
    if (name === "Referrer-Policy" && response.headers.has(name)) continue;
    response.headers.set(name, value);
  }
  return response;
}
