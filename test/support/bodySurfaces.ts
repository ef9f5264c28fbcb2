import { runCli, startServe, tempDir, type ServedProcess } from "../cli/cliHarness.ts";

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

export interface SurfaceServer {
  server: ServedProcess;
  /** The key a keyed call to `surface` carries (undefined for the console). */
  keyFor(surface: BodySurface): string | undefined;
  /** Kills the server and removes its database. */
  stop(): void;
}

/**
 * `serve` as a child process (its memory and descriptors its own) over a fresh database, with
 * an API key and an embed key of generous limits; `args` are serve's further flags.
 */
export async function serveWithSurfaceKeys(args: string[] = []): Promise<SurfaceServer> {
  const tmp = tempDir();
  const path = tmp.path("surfaces.db");
  const createKey = async (...extra: string[]) => {
    const created = await runCli(["keys", "create", "--workspace", "surfaces", "--rate-limit", "1000000", "--json", ...extra], { DATABASE_PATH: path });
    return (JSON.parse(created.stdout) as { key: string }).key;
  };
  const keys = { api: await createKey(), embed: await createKey("--origins", EMBED_ORIGIN) };
  const server = await startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo", ...args], { env: { DATABASE_PATH: path } });
  return {
    server,
    keyFor: (surface) => (surface.keyed ? keys[surface.keyed] : undefined),
    stop() {
      server.proc.kill("SIGKILL");
      tmp.remove();
    },
  };
}

/** The requests a server has in flight (its /metrics gauge), the scrape that asks excluded. */
export async function requestsInFlight(serverUrl: string): Promise<number> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  return Number(/^broker_directory_http_requests_in_flight (\d+)/m.exec(text)?.[1]) - 1;
}
