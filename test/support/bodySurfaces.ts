/** Every surface that reads a request body, as a raw POST's path and headers (rawHttp.ts). */

const JSON_TYPE = "Content-Type: application/json";

export interface BodySurface {
  name: string;
  path: string;
  /** Header lines besides Host, Authorization and Content-Length. */
  headers: string;
  /** Which key a keyed call carries (the console takes a session, not a key: none). */
  keyed: "api" | "embed" | null;
}

export const BODY_SURFACES: readonly BodySurface[] = [
  { name: "REST", path: "/api/v1/leads", headers: JSON_TYPE, keyed: "api" },
  { name: "embed", path: "/api/v1/embed/leads", headers: `${JSON_TYPE}\r\nOrigin: https://partner.example`, keyed: "embed" },
  { name: "tRPC", path: "/trpc/leads.create", headers: JSON_TYPE, keyed: "api" },
  { name: "MCP", path: "/mcp", headers: `${JSON_TYPE}\r\nAccept: application/json, text/event-stream`, keyed: "api" },
  { name: "console", path: "/console/api/keys", headers: JSON_TYPE, keyed: null },
];

/** The embed key's origin, as BODY_SURFACES' embed call sends it. */
export const EMBED_ORIGIN = "https://partner.example";

/** A raw POST's head (no blank line after it) declaring `length` bytes of body. */
export function postHead(serverUrl: string, surface: BodySurface, bearer: string | undefined, length: number): string {
  const auth = bearer ? [`Authorization: Bearer ${bearer}`] : [];
  return [`POST ${surface.path} HTTP/1.1`, `Host: ${new URL(serverUrl).host}`, surface.headers, ...auth, `Content-Length: ${length}`].join("\r\n");
}
