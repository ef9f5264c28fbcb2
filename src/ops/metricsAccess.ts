import { timingSafeEqual } from "node:crypto";

export type MetricsAccess = { allowed: true } | { allowed: false; status: 401 | 403; message: string };

/**
 * Who may read /metrics: a client on this machine (a loopback address, and no proxy header
 * saying the request was forwarded from elsewhere), or anyone who presents the operator's
 * METRICS_TOKEN as a bearer token. A reverse proxy on the same machine forwards from
 * 127.0.0.1 too, which is why a forwarded request never counts as local.
 */
export function decideMetricsAccess(request: {
  remoteAddress: string | undefined;
  authorization: string | null;
  forwarded: boolean;
  token: string | undefined;
}): MetricsAccess {
  if (request.authorization !== null) {
    const offered = /^Bearer[ ]+(\S+)\s*$/i.exec(request.authorization)?.[1];
    if (request.token && offered !== undefined && sameSecret(offered, request.token)) return { allowed: true };
    return { allowed: false, status: 401, message: "Invalid metrics token. Send 'Authorization: Bearer $METRICS_TOKEN' as configured on the server." };
  }
  if (!request.forwarded && isLoopback(request.remoteAddress)) return { allowed: true };
  return {
    allowed: false,
    status: 403,
    message: request.token
      ? "Metrics are readable from this machine or with 'Authorization: Bearer $METRICS_TOKEN'."
      : "Metrics are readable only from this machine (loopback). Set METRICS_TOKEN on the server to read them remotely.",
  };
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.startsWith("::ffff:") ? address.slice(7) : address;
  return ip === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
