import type { Server, SocketAddress } from "bun";
import { createRestHandler } from "./adapters/rest/restHandler.ts";
import { restRoutes } from "./adapters/rest/restRoutes.ts";
import { errorResponse, jsonResponse, stampedJsonText, utf8Body } from "./adapters/http/json.ts";
import { isLocalClient, isLoopbackBinding, rebindingRefusal } from "./adapters/http/loopback.ts";
import type { InFlightResponses } from "./adapters/http/inFlight.ts";
import { BodyArrival } from "./adapters/http/bodyArrival.ts";
import { ClientSlots } from "./adapters/http/clientSlots.ts";
import { isEmbedPath, withEmbedCors } from "./adapters/rest/cors.ts";
import { requestIdFor, type RequestInfo } from "./adapters/http/requestInfo.ts";
import { preferredLanguage } from "./adapters/http/acceptLanguage.ts";
import { INTERNAL_ERROR_MESSAGE } from "./adapters/errorVocabulary.ts";
import { demoPageHandler } from "./adapters/static/demoPage.ts";
import { widgetCode } from "./adapters/static/embeddedAssets.ts";
import { widgetAssetHandler } from "./adapters/static/widgetAsset.ts";
import { DOCS_CONTENT_SECURITY_POLICY } from "./adapters/docs/docsStyle.ts";
import { createManualHtml } from "./adapters/docs/manualHtml.ts";
import { capabilityMarkdown } from "./adapters/capabilities.ts";
import { MANUAL_PAGES } from "./adapters/docs/manualPages.ts";
import { readOnlyRefusal } from "./adapters/http/methodRefusal.ts";
import { rawSegmentRoutes } from "./adapters/http/rawTarget.ts";
import { closeSoonIfAsked } from "./adapters/http/connectionClose.ts";
import { parseRequestTarget } from "./adapters/http/requestTarget.ts";
import type { TargetUrl } from "./adapters/http/splitUrl.ts";
import { createOpenApiSource } from "./adapters/openapi/openApiEndpoint.ts";
import { createTrpcHandler, TRPC_ENDPOINT } from "./adapters/trpc/trpcHandler.ts";
import { createMcpHandler } from "./adapters/mcp/mcpHandler.ts";
import { createConsoleHandler } from "./adapters/console/consoleHandler.ts";
import { HttpMetrics } from "./ops/httpMetrics.ts";
import { createMetricsEndpoint } from "./adapters/metrics/metricsEndpoint.ts";
import { checkReadiness, type Readiness } from "./ops/readiness.ts";
import type { Awaitable } from "./storage/ports.ts";
import type { Services } from "./services.ts";

export interface ServerOptions {
  port: number;
  hostname: string;
  /** The embed key the /demo page uses when no ?key= is given (made after the port is known). */
  demoEmbedKey?: () => Awaitable<string | undefined>;
  /** The embed key the console's embed-code preview renders the widget with (this server's own origins only). */
  consolePreviewKey?: () => Awaitable<string | undefined>;
  /** Serve /demo to other machines too (DEMO_PUBLIC); by default only to this one. */
  demoPublic?: boolean;
  /** The origin clients use (PUBLIC_URL); else each request's own origin. */
  publicUrl?: string;
  /** Lets a remote scraper read /metrics with `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** Browser origins allowed to call /mcp; requests without Origin (agents) are always fine. */
  mcpAllowedOrigins?: readonly string[];
  /** Counts unfinished responses, streams included, for graceful stop. */
  inFlight?: InFlightResponses;
  /** BODY_TIMEOUT_SECONDS: how long a request body may take to arrive whole (default 10). */
  bodyTimeoutSeconds?: number;
  /** MAX_UPLOADS_PER_CLIENT: requests with a body one client address may have in progress at once (default 256). */
  maxUploadsPerClient?: number;
}

/**
 * Long enough for a slow MCP tool call or a large directory resource: Bun's default (10 s
 * without a byte) would cut them, and MCP clients wait 60 s by default.
 */
const IDLE_TIMEOUT_SECONDS = 120;
/**
 * Bodies are 64 KiB at most (see readJsonText), refused by our readers with a JSON 413 (CORS on
 * embed paths). Bun's own limit is a backstop far above ours, so that a declared length up to it
 * still reaches those readers; past it Bun answers an empty 413 and closes (see the manual, security page).
 */
const MAX_REQUEST_BODY_BYTES = 8 * 1024 * 1024;
/** The manual (src/adapters/docs/manual/*.md): its index here, each page at MANUAL_PATH/<name>. */
const MANUAL_PATH = "/docs/manual";
/**
 * The front door's own pages, probes and documents, each read with GET or HEAD only: any other
 * method is refused once for all of them (405, Allow: GET, HEAD), before the page is looked at.
 * Path → the route label the log and /metrics use.
 */
const READ_ONLY_PATHS = new Map<string, string>([
  ["/api/v1/openapi.json", "/api/v1/openapi.json"],
  ["/widget.js", "/widget.js"],
  ["/demo", "/demo"],
  ["/healthz", "/healthz"],
  ["/readyz", "/readyz"],
  ["/metrics", "/metrics"],
  ["/docs", "/docs"],
  ["/docs/", "/docs"],
  [MANUAL_PATH, MANUAL_PATH],
  [`${MANUAL_PATH}/`, MANUAL_PATH],
  ...MANUAL_PAGES.map((page): [string, string] => [`${MANUAL_PATH}/${page.name}`, `${MANUAL_PATH}/:page`]),
]);
/** /healthz's body: the same every time, encoded once. */
const HEALTHY = utf8Body(JSON.stringify({ status: "ok" }));

/**
 * The HTTP front door: one Bun.serve that sends each path to its adapter, stamps the request
 * id on every response and writes one access-log line per request.
 */
export function startServer(services: Services, options: ServerOptions): Server<undefined> {
  const handleRest = createRestHandler(services, restRoutes);
  // Built on first use: in dev that bundles widget/ once; the binary has it embedded.
  let serveWidget: Promise<ReturnType<typeof widgetAssetHandler>> | undefined;
  const serveDemo = demoPageHandler({ embedKey: () => options.demoEmbedKey?.() });
  // Bound to loopback, the routes that trust local callers answer only localhost names
  // (DNS rebinding), as /mcp does.
  const checkHost = isLoopbackBinding(options.hostname);
  const behindProxy = options.publicUrl !== undefined;
  const handleTrpc = createTrpcHandler(services);
  const handleConsole = createConsoleHandler(services, { publicUrl: options.publicUrl, previewKey: () => options.consolePreviewKey?.() });
  const handleMcp = createMcpHandler(services, { allowedOrigins: options.mcpAllowedOrigins ?? [], boundHostname: options.hostname });
  const metrics = new HttpMetrics();
  const serveMetrics = createMetricsEndpoint({
    metrics,
    db: services.db,
    token: options.metricsToken,
    caches: () => services.caches.stats(),
    inFlight: () => options.inFlight?.requestsInFlight ?? 0,
    outbox: () => services.webhooks.outboxGauges(),
    webhookAttempts: services.webhookAttempts,
    now: services.now,
  });
  const contract = createOpenApiSource(restRoutes);
  const manual = createManualHtml({ capabilityTable: capabilityMarkdown });
  const bodies = new BodyArrival(options.bodyTimeoutSeconds ?? 10, IDLE_TIMEOUT_SECONDS);
  const slots = new ClientSlots(options.maxUploadsPerClient ?? 256);

  // Not async: an answer ready at once (a cached read, a probe) is handed to Bun as it is,
  // which spares the promise machinery on the hot path.
  function route(request: Request, url: TargetUrl, info: RequestInfo): Response | Promise<Response> {
    const path = url.pathname;
    const readOnly = READ_ONLY_PATHS.get(path);
    if (readOnly !== undefined && request.method !== "GET" && request.method !== "HEAD") {
      info.route = readOnly;
      return readOnlyRefusal(request, info, readOnly)!;
    }
    if (path === "/api/v1/openapi.json") {
      info.route = path;
      return new Response(contract.json(info.baseUrl), {
        headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*" },
      });
    }
    if (path.startsWith("/api/v1/") || path === "/api/v1") return handleRest(request, url, info);
    if (path === TRPC_ENDPOINT || path.startsWith(`${TRPC_ENDPOINT}/`)) return handleTrpc(request, url, info);
    // No redirect for /mcp/: MCP clients must not be bounced (a redirect can drop the POST).
    if (path === "/mcp" || path === "/mcp/") return handleMcp(request, info);
    if (path.startsWith("/.well-known/oauth-") || path === "/.well-known/openid-configuration") {
      // Advertising OAuth we do not run would send MCP clients into a flow that cannot succeed.
      info.route = "/.well-known/oauth-*";
      return errorResponse(info, "not_found", "This server does not use OAuth: send an API key as 'Authorization: Bearer brk_…'.");
    }
    if (path === "/console" || path.startsWith("/console/")) {
      return handleConsole(request, url, info, info.clientAddress ?? "unknown");
    }
    if (path === "/widget.js") {
      info.route = path;
      serveWidget ??= widgetCode()
        .then(widgetAssetHandler)
        .catch((error: unknown) => {
          serveWidget = undefined; // a failed dev build is retried on the next request
          throw error;
        });
      return serveWidget.then((serve) => serve(request, info));
    }
    if (path === "/demo") {
      info.route = path;
      const refusal = rebindingRefusal(request, checkHost);
      if (refusal) return errorResponse(info, "host_not_allowed", refusal);
      if (!options.demoPublic && !isLocalClient(request, { peerAddress: info.clientAddress, behindProxy })) {
        return errorResponse(info, "local_only", "The demo page is served to this machine only (open http://localhost:PORT/demo there); the operator can open it to others with --demo-public.");
      }
      return serveDemo(request);
    }
    if (path === "/healthz") {
      info.route = path;
      return stampedJsonText(HEALTHY, info);
    }
    if (path === "/readyz" || path === "/readyz/writes") {
      // /readyz: can this instance serve (the balancer's check); /readyz/writes: can it write too.
      info.route = path;
      const readiness = checkReadiness(services.storage, services.drain);
      const answer = ({ ready, writable, mode, checks }: Readiness) => {
        const ok = path === "/readyz" ? ready : writable;
        return jsonResponse({ status: ok ? "ready" : "not ready", mode, checks }, ok ? 200 : 503);
      };
      return readiness instanceof Promise ? readiness.then(answer) : answer(readiness);
    }
    if (path === "/metrics") {
      info.route = path;
      const refusal = rebindingRefusal(request, checkHost);
      if (refusal) return errorResponse(info, "host_not_allowed", refusal);
      return serveMetrics(request, info, isLocalClient(request, { peerAddress: info.clientAddress, behindProxy }));
    }
    if (path === "/docs" || path === "/docs/") {
      info.route = "/docs";
      return docsPage(contract.docsHtml(info.baseUrl));
    }
    if (path === MANUAL_PATH || path.startsWith(`${MANUAL_PATH}/`)) {
      // A fixed set of pages, looked up by name: an unknown one falls through to the 404 below.
      const name = path.slice(MANUAL_PATH.length + 1);
      const html = name === "" ? manual.index() : manual.page(name);
      if (html !== undefined) {
        info.route = name === "" ? MANUAL_PATH : `${MANUAL_PATH}/:page`;
        return docsPage(html);
      }
    }
    return errorResponse(info, "not_found", `No such path: ${path.slice(0, 200)}. The API lives under /api/v1.`);
  }

  function failed(error: unknown, info: RequestInfo): Response {
    services.log.error("unhandled request failure", {
      requestId: info.requestId,
      route: info.route,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return errorResponse(info, "internal_error", INTERNAL_ERROR_MESSAGE);
  }

  /** Stamps the request id, counts the answer and writes its access-log line. */
  function finish(request: Request, response: Response, info: RequestInfo, started: number, end: (() => void) | undefined): Response {
    try {
      if (!info.requestIdSent) response.headers.set("X-Request-Id", info.requestId);
      // Only these fields, by design (see RequestLogFields).
      const ms = performance.now() - started;
      const routeLabel = info.route ?? "(unmatched)";
      const { method } = request;
      const { status } = response;
      metrics.record(method, routeLabel, status, ms / 1000);
      services.log.request({ requestId: info.requestId, method, route: routeLabel, status, ms, keyId: info.keyId });
      return response;
    } finally {
      if (end) {
        if (info.streaming) options.inFlight!.streamUntil(info.streaming, end);
        else end();
      }
    }
  }

  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    // Every request goes through these (Bun matches them on the path as sent), so the front
    // door can refuse a path Bun would resolve (rawTarget.ts); the fallback below takes the rest.
    routes: rawSegmentRoutes((request: Request, server: Server<undefined>) => fetchEntry(request, server)),
    fetch: fetchEntry,
    // Reached only by a fault outside fetch's try. Its message may quote the request (Bun's
    // URL errors do), so only the error's kind and where it was thrown are logged.
    error(error) {
      services.log.error("server error", { error: `${error.name}\n${stackFrames(error)}` });
      const requestId = crypto.randomUUID();
      return errorResponse({ requestId }, "internal_error", INTERNAL_ERROR_MESSAGE, { "X-Request-Id": requestId });
    },
  });

  function fetchEntry(request: Request, server: Server<undefined>): Response | Promise<Response> {
    // Counted until the response is done (a streamed body: until the stream ends), so that
    // graceful stop can wait for it.
    const end = options.inFlight?.begin();
    try {
      return answer(request, server, end);
    } catch (error) {
      end?.(); // a fault before the answer was handed on: Bun's error() answers it
      throw error;
    }
  }

  function answer(request: Request, server: Server<undefined>, endInFlight: (() => void) | undefined): Response | Promise<Response> {
    const started = performance.now();
    let peer: SocketAddress | undefined | null = null;
    const peerOf = () => (peer === null ? (peer = server.requestIP(request) ?? undefined) : peer);
    const info: RequestInfo = {
      requestId: requestIdFor(request),
      baseUrl: options.publicUrl ?? "",
      publicUrl: options.publicUrl,
      // Read only to word an error (few requests).
      get language() {
        return preferredLanguage(request.headers.get("accept-language"));
      },
      // Asked for by few routes (auth failures, local-only pages, uploads, downloads): looked up
      // only then (it cost a /healthz answer a third of its time).
      get clientAddress() {
        return peerOf()?.address;
      },
      get socket() {
        const client = peerOf();
        return client && server.port !== undefined ? { serverPort: server.port, clientPort: client.port } : undefined;
      },
    };
    const target = parseRequestTarget(request, info);
    if (options.publicUrl === undefined && target.ok) info.baseUrl = target.url.origin;
    // A request with a body is one a client can hold open at will (sending it slowly): those
    // have a deadline and a cap per client address.
    const hasBody = bodies.start(request, server);
    const slot = hasBody ? slots.take(info) : undefined;
    let end = endInFlight;
    let reply: Response | Promise<Response>;
    // An answer given later is settled (see BodyArrival) in the same turn that finishes it.
    let settleLater = false;
    try {
      if (slot !== undefined && typeof slot !== "function") {
        info.route = "(too many in progress)";
        const refusal = errorResponse(info, slot.code, slot.message, { "Retry-After": "1" });
        reply = target.ok && isEmbedPath(target.url.pathname) ? withEmbedCors(request, refusal) : refusal;
        // Its body is not waited for (that would hold what was refused): the connection closes soon.
        server.timeout(request, 1);
      } else {
        if (slot) {
          end = () => {
            slot();
            endInFlight?.();
          };
        }
        if (target.ok) reply = route(request, target.url, info);
        else {
          info.route = "(bad request target)";
          reply = target.response;
        }
        if (hasBody && reply instanceof Response) reply = bodies.settle(request, reply, server, info);
        else settleLater = hasBody;
      }
    } catch (error) {
      reply = failed(error, info);
    }
    if (reply instanceof Response) return finish(request, reply, info, started, end);
    const answered = (response: Response) => {
      closeSoonIfAsked(request, server, info.streaming !== undefined);
      return finish(request, response, info, started, end);
    };
    const failedLater = (error: unknown) => finish(request, failed(error, info), info, started, end);
    return reply.then((response) => {
      if (!settleLater) return answered(response);
      try {
        const settled = bodies.settle(request, response, server, info);
        return settled instanceof Response ? answered(settled) : settled.then(answered, failedLater);
      } catch (error) {
        return failedLater(error);
      }
    }, failedLater);
  }
}

/** The "    at …" lines of a stack, without the message above them. */
function stackFrames(error: Error): string {
  return (error.stack ?? "")
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .join("\n");
}

/** A page under /docs: self-contained HTML under the strict policy its one hashed style sheet allows. */
function docsPage(html: string): Response {
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": DOCS_CONTENT_SECURITY_POLICY,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-cache",
    },
  });
}
