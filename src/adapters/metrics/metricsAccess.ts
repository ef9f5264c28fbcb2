import { timingSafeEqual } from "node:crypto";

export type MetricsAccess = { allowed: true } | { allowed: false; code: "invalid_metrics_token" | "local_only"; message: string };

/**
 * Who may read /metrics: a client on this machine talking to us directly (`local`, see
 * isLocalClient: never when PUBLIC_URL says a proxy is in front, since a proxy on the same
 * machine connects from 127.0.0.1 and need not add any forwarding header), or anyone who
 * presents the operator's METRICS_TOKEN as a bearer token: the way for a remote scraper.
 */
export function decideMetricsAccess(request: { local: boolean; authorization: string | null; token: string | undefined }): MetricsAccess {
  if (request.authorization !== null) {
    const offered = /^Bearer[ ]+(\S+)\s*$/i.exec(request.authorization)?.[1];
    if (request.token && offered !== undefined && sameSecret(offered, request.token)) return { allowed: true };
    return { allowed: false, code: "invalid_metrics_token", message: "Invalid metrics token. Send 'Authorization: Bearer $METRICS_TOKEN' as configured on the server." };
  }
  if (request.local) return { allowed: true };
  return {
    allowed: false,
    code: "local_only",
    message: request.token
      ? "Metrics are readable from this machine or with 'Authorization: Bearer $METRICS_TOKEN'."
      : "Metrics are readable only from this machine (loopback). Set METRICS_TOKEN on the server to read them remotely.",
  };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
