/**
 * Is a request from this machine? The rules shared by every route that trusts local callers
 * more (MCP's DNS-rebinding check, /metrics, /demo, the demo page's same-origin requests).
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
 * Why a server bound to loopback (`checkHost`) refuses this request, or undefined when it does
 * not: the Host names another machine. MCP and the local-only routes answer it in their forms.
 */
export function rebindingRefusal(request: Request, checkHost: boolean): string | undefined {
  if (!checkHost || isLocalHostHeader(request.headers.get("host"))) return undefined;
  return "This server listens on localhost and only answers requests addressed to localhost, 127.0.0.1 or [::1] (DNS rebinding protection).";
}

/** A loopback peer address as Bun reports it (IPv4, IPv6 or IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.startsWith("::ffff:") ? address.slice(7) : address;
  return ip === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

export interface ClientFacts {
  /** The socket's peer address (server.requestIP): a proxy's own address behind a proxy. */
  peerAddress: string | undefined;
  /** PUBLIC_URL is set, i.e. the operator says a reverse proxy fronts this server. */
  behindProxy: boolean;
}

/**
 * A client on this machine, talking to us directly: a loopback peer, a localhost Host (no
 * DNS rebinding), no forwarding header, and no PUBLIC_URL. The last one matters because a
 * reverse proxy on the same machine also connects from 127.0.0.1 and nginx, by default, adds
 * no X-Forwarded-For and sends `Host: 127.0.0.1:PORT`: behind a proxy nothing in the request
 * tells a local caller from a forwarded one, so none is taken as local.
 */
export function isLocalClient(request: Request, facts: ClientFacts): boolean {
  return (
    !facts.behindProxy &&
    isLoopbackAddress(facts.peerAddress) &&
    isLocalHostHeader(request.headers.get("host")) &&
    !request.headers.has("x-forwarded-for") &&
    !request.headers.has("forwarded") &&
    !request.headers.has("x-real-ip")
  );
}
