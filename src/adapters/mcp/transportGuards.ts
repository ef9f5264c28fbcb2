/**
 * The browser-facing defences of the MCP endpoint (Streamable HTTP "Security Warning"):
 * an Origin allow-list, and the Host check that defeats DNS rebinding of a local server.
 */

const LOCAL_HOST_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True when the server listens only on this machine (the DNS-rebinding case). */
export function isLoopbackBinding(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === "localhost" || name === "::1" || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * A page on attacker.example that rebinds its DNS name to 127.0.0.1 still sends
 * `Host: attacker.example`: only localhost names, with any port, reach a loopback server.
 */
export function isLocalHostHeader(host: string | null): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d+$/, "");
  return LOCAL_HOST_NAMES.has(name);
}

/**
 * Requests without Origin come from servers and CLIs (agents), and are fine; a browser
 * always sends one, and it must be on the configured list (empty by default).
 */
export function isAllowedOrigin(origin: string | null, allowed: ReadonlySet<string>): boolean {
  return origin === null || allowed.has(origin);
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
