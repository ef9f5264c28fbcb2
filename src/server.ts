import type { Server } from "bun";
import { createRestHandler } from "./adapters/rest/restHandler.ts";
import { restRoutes } from "./adapters/rest/restRoutes.ts";
import { errorResponse, jsonResponse } from "./adapters/http/json.ts";
import { requestIdFor, type RequestInfo } from "./adapters/http/requestInfo.ts";
import { INTERNAL_ERROR_MESSAGE } from "./adapters/errorVocabulary.ts";
import type { Services } from "./services.ts";

export interface ServerOptions {
  port: number;
  hostname: string;
}

/** Long enough for a slow MCP tool call or a large directory resource; Bun's default is 10 s. */
const IDLE_TIMEOUT_SECONDS = 120;
/** Bodies are 64 KiB at most (see readJsonBody); Bun refuses anything far beyond before reading it. */
const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * The HTTP front door: one Bun.serve that sends each path to its adapter, stamps the request
 * id on every response and writes one access-log line per request.
 */
export function startServer(services: Services, options: ServerOptions): Server<undefined> {
  const handleRest = createRestHandler(services, restRoutes);

  async function route(request: Request, url: URL, info: RequestInfo): Promise<Response> {
    const path = url.pathname;
    if (path.startsWith("/api/v1/") || path === "/api/v1") return handleRest(request, url, info);
    if (path === "/healthz") {
      info.route = path;
      return jsonResponse({ status: "ok" });
    }
    return errorResponse(404, `No such path: ${path.slice(0, 200)}. The API lives under /api/v1.`);
  }

  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    async fetch(request) {
      const started = performance.now();
      const url = new URL(request.url);
      const info: RequestInfo = { requestId: requestIdFor(request), baseUrl: url.origin };
      let response: Response;
      try {
        response = await route(request, url, info);
      } catch (error) {
        services.log.error("unhandled request failure", {
          requestId: info.requestId,
          route: info.route,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        response = errorResponse(500, INTERNAL_ERROR_MESSAGE);
      }
      response.headers.set("X-Request-Id", info.requestId);
      services.log.info("request", {
        requestId: info.requestId,
        method: request.method,
        route: info.route ?? "(unmatched)",
        status: response.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        keyId: info.keyId,
      });
      return response;
    },
    error(error) {
      services.log.error("server error", { error: error.stack ?? error.message });
      return errorResponse(500, INTERNAL_ERROR_MESSAGE);
    },
  });
}
