import { isLocalClient } from "./loopback.ts";
import type { RequestInfo } from "./requestInfo.ts";

/**
 * The browser origin a request comes from. Browsers send `Origin` on cross-origin requests
 * and on same-origin POSTs, but not on same-origin GETs; those say `Sec-Fetch-Site:
 * same-origin`, and their origin is our own. Our own origin is known for sure only from
 * PUBLIC_URL; without it, it would come from the Host header, which any non-browser client
 * writes as it likes, so it is trusted only from a client on this machine (the /demo page,
 * which is served to this machine only unless the operator opens it). Null otherwise.
 */
export function requestOrigin(request: Request, info: RequestInfo): string | null {
  const origin = request.headers.get("origin");
  if (origin) return origin;
  if (request.headers.get("sec-fetch-site") !== "same-origin") return null;
  if (info.publicUrl) return info.publicUrl;
  return isLocalClient(request, { peerAddress: info.clientAddress, behindProxy: false }) ? info.baseUrl : null;
}
