/**
 * The browser-facing defences of the MCP endpoint (Streamable HTTP "Security Warning"):
 * an Origin allow-list, and the Host check that defeats DNS rebinding of a local server.
 */

import { isLocalHostHeader } from "../http/loopback.ts";

// The Host rules are shared with /metrics and /demo; re-exported for this adapter.
export { isLocalHostHeader, isLoopbackBinding } from "../http/loopback.ts";

/** http(s)://localhost, 127.0.0.1 or [::1], any port: a page served from this same machine. */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;

/**
 * Requests without Origin come from servers and CLIs (agents), and are fine; a browser always
 * sends one, and it must be on the configured list (empty by default) — or be a loopback
 * origin while the request's Host is a loopback name too: a local browser client such as the
 * MCP Inspector talking to a local server. A page elsewhere can never carry a loopback Origin,
 * and a DNS-rebound page carries its own name in both Origin and Host, so neither gets in.
 */
export function isAllowedOrigin(origin: string | null, allowed: ReadonlySet<string>, host: string | null): boolean {
  if (origin === null || allowed.has(origin)) return true;
  return LOOPBACK_ORIGIN.test(origin.toLowerCase()) && isLocalHostHeader(host);
}

/** CORS answers for allow-listed browser origins (MCP clients that run in a web page). */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "WWW-Authenticate, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id",
    Vary: "Origin",
  };
}

export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, X-Request-Id",
    "Access-Control-Max-Age": "600",
  };
}
