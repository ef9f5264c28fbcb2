import { admit, bearerToken, chargeMore, type Admission } from "../../auth/admitRequest.ts";
import { BROKER_PHOTO_ROUTE, brokerPhotoSlug } from "../../router/embed/photoUrl.ts";
import { callProcedure } from "../../router/procedureCatalog.ts";
import type { Context, IdempotencyRequest } from "../../router/trpc.ts";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from "../../schemas/idempotencyKey.ts";
import type { Services } from "../../services.ts";
import { retryAfterHeaders, toPublicError } from "../errorVocabulary.ts";
import { csvDownload, type CsvPage } from "../http/csvResponse.ts";
import { errorResponse, failureResponse, utf8Body } from "../http/json.ts";
import { allowedMethods, methodNotAllowed } from "../http/methodRefusal.ts";
import { admittedJson, rateLimitHeaders } from "../http/rateLimitHeaders.ts";
import { readJsonBody } from "../http/readJsonBody.ts";
import type { RequestInfo } from "../http/requestInfo.ts";
import type { TargetUrl } from "../http/splitUrl.ts";
import { requestOrigin } from "../http/requestOrigin.ts";
import { serveBrokerPhoto } from "../static/brokerPhoto.ts";
import { isEmbedPath, optionsResponse, withEmbedCors } from "./cors.ts";
import { compilePaths, matchPath } from "./pathMatcher.ts";
import { ResponseCache } from "./responseCache.ts";
import { VersionedCache } from "../../storage/versionedCache.ts";
import { ResponseCacheKeys, type ParsedInput } from "./responseCacheKey.ts";
import { queryInput, queryObject, type RestRoute } from "./restRoute.ts";

/** Memory for cached directory answers (see ResponseCache): 16 MiB and 10,000 answers at most. */
const RESPONSE_CACHE_LIMITS = { maxEntries: 10_000, maxBytes: 16 * 1024 * 1024, secondRequest: true };
/**
 * Rendered answers asked for again within 3,000 requests (see Doorkeeper): a hot broker's, kept
 * in memory rather than read from the directory's file each time (one hot review page: 35-40k
 * req/s read, 48-49k kept). Not the response cache: with its window of 30,000 requests, a walk
 * over 20,000 brokers let nearly every answer in, and the insertions and evictions cost a fifth
 * of the walk's throughput (details at 100,000 brokers: 18-19k against 23.5k req/s).
 */
const HOT_RENDERED_LIMITS = { maxEntries: 1_000, maxBytes: 4 * 1024 * 1024, secondRequest: true };
/** The cache key of each URL seen lately (see ResponseCacheKeys): URLs are 8 KiB at most. */
const CACHE_KEY_LIMITS = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024, secondRequest: true };

type Answer = Response | Promise<Response>;

/**
 * Translates /api/v1 HTTP requests into procedure calls and their results (or errors) back
 * into JSON responses. Knows nothing of brokers: the route table says what to call.
 *
 * Written so that an answer ready at once (a directory read from the response cache) is
 * returned as a Response, not a promise: the front door then hands it to Bun directly. Every
 * request takes the same steps in the same order either way (match, admission, cache, call).
 */
export function createRestHandler(services: Services, routes: readonly RestRoute[]) {
  const compiled = compilePaths(routes.map((route) => ({ path: route.path, value: route })));
  const responses = new ResponseCache(RESPONSE_CACHE_LIMITS, "rest-responses", utf8Body);
  const cacheKeys = new ResponseCacheKeys(CACHE_KEY_LIMITS);
  const hotRendered = new VersionedCache<Uint8Array<ArrayBuffer>>("rest-rendered-hot", HOT_RENDERED_LIMITS, (body) => body.byteLength);
  services.caches.add(responses, cacheKeys, hotRendered);

  // Embed paths answer CORS on every response, errors included, so a widget can read them.
  return function handleRestWithCors(request: Request, url: TargetUrl, info: RequestInfo): Answer {
    const response = handleRest(request, url, info);
    if (!isEmbedPath(url.pathname)) return response;
    return response instanceof Response ? withEmbedCors(request, response) : response.then((settled) => withEmbedCors(request, settled));
  };

  function handleRest(request: Request, url: TargetUrl, info: RequestInfo): Answer {
    // Broker pictures are public: an <img> cannot send a key.
    const photoSlug = brokerPhotoSlug(url.pathname);
    if (photoSlug !== undefined) {
      info.route = BROKER_PHOTO_ROUTE;
      return serveBrokerPhoto(services, request, info, photoSlug);
    }
    // HEAD is a GET whose body is not sent (Bun drops it, keeping its Content-Length): the same
    // admission, rate-limit unit, cache and headers, so a client can check a URL as it would read it.
    const method = request.method === "HEAD" ? "GET" : request.method;
    const matches = matchPath(compiled, url.pathname);
    if (matches.length === 0) {
      return errorResponse(info, "not_found", `No such endpoint: ${method.slice(0, 20)} ${url.pathname.slice(0, 200)}. See /api/v1/openapi.json.`);
    }
    // Preflight carries no key: answered before admission (CORS on embed paths, 405 elsewhere).
    if (request.method === "OPTIONS") {
      info.route = matches[0]!.value.path;
      return optionsResponse(request, info, url.pathname, allowedMethods([...new Set(matches.map((m) => m.value.method))]));
    }
    const match = matches.find((m) => m.value.method === method);
    if (!match) return methodNotAllowed(request, info, url.pathname, allowedMethods([...new Set(matches.map((m) => m.value.method))]));
    const route = match.value;
    info.route = route.path;

    const admission = admit(services, {
      authorization: request.headers.get("authorization"),
      origin: requestOrigin(request, info),
      surface: route.surface,
      ownOrigin: info.baseUrl,
      client: info,
    });
    return admission instanceof Promise
      ? admission.then((settled) => admitted(request, url, info, route, match.params, settled))
      : admitted(request, url, info, route, match.params, admission);
  }

  function admitted(request: Request, url: TargetUrl, info: RequestInfo, route: RestRoute, params: Record<string, string>, admission: Admission): Answer {
    if (!admission.ok) {
      const failure = toPublicError(admission.error);
      const headers: Record<string, string> = { ...rateLimitHeaders(admission.rate), ...retryAfterHeaders(failure) };
      if (failure.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="broker-directory"';
      return failureResponse(info, failure, headers);
    }
    info.keyId = admission.principal.keyId;

    // A key without the route's scope goes on to the procedure, which refuses it in its words.
    const parsedInput: ParsedInput = {};
    const cacheKey = route.directoryRead && admission.principal.scopes.has(route.scope) ? cacheKeys.of(route, params, url, parsedInput) : undefined;
    const version = cacheKey === undefined ? 0 : services.brokers.version();
    if (cacheKey !== undefined) {
      // A route the directory renders keeps its hot answers in the small cache, looked at first:
      // its answers reach the response cache only while the directory is not rendered yet.
      if (route.rendered) {
        const hot = hotRendered.lookup(cacheKey, version);
        if (hot !== undefined) return admittedJson(hot, 200, admission.rate, info);
      }
      const cached = responses.get(cacheKey, version, info.baseUrl);
      if (cached !== undefined) return admittedJson(cached, 200, admission.rate, info);
      if (route.rendered) {
        // Not kept, but rendered by the directory (a broker's detail, a first review page, a search page).
        const rendered = route.rendered.read(services, renderedInput(route, params, url, parsedInput), parsedInput.data);
        if (rendered !== undefined) {
          const body = renderedBody(route, rendered);
          hotRendered.store(cacheKey, version, body);
          return admittedJson(body, 200, admission.rate, info);
        }
      }
    }
    return callRoute(request, url, info, route, params, admission, cacheKey, version, parsedInput);
  }

  async function callRoute(
    request: Request,
    url: TargetUrl,
    info: RequestInfo,
    route: RestRoute,
    params: Record<string, string>,
    admission: Extract<Admission, { ok: true }>,
    cacheKey: string | undefined,
    version: number,
    parsedInput: ParsedInput,
  ): Promise<Response> {
    try {
      const ctx: Context = {
        services,
        principal: admission.principal,
        surface: route.surface,
        requestId: info.requestId,
        baseUrl: info.baseUrl,
        idempotency: idempotencyRequest(route, request),
      };
      if (route.envelope === "csv") return await csvExport(ctx, route, queryInput(route, params, queryObject(url)), info, admission, request.method === "HEAD");
      const body = route.body ? (route.body === "optional" && sentNoBody(request) ? {} : await readJsonBody(request)) : undefined;
      const result = await route.call(ctx, { params, query: parsedInput.query ?? queryObject(url), body, request }, parsedInput.data);
      const text = answerText(route, result);
      // An answer the directory keeps rendered as it is first asked for (a broker's first review page).
      if (cacheKey !== undefined) route.rendered?.keep?.(services, renderedInput(route, params, url, parsedInput), version, text);
      // The bytes the cache keeps, when it keeps them, are what is sent: one UTF-8 encoding, not two.
      const kept = cacheKey === undefined ? undefined : responses.set(cacheKey, version, info.baseUrl, text);
      const response = admittedJson(kept ?? text, route.status ?? 200, admission.rate, info);
      if (ctx.idempotency?.replayed) response.headers.set(IDEMPOTENT_REPLAYED_HEADER, "true");
      return response;
    } catch (error) {
      const failure = toPublicError(error);
      if (failure.internal) logFailure(info, route, error);
      return failureResponse(info, failure, { ...rateLimitHeaders(admission.rate), ...retryAfterHeaders(failure) });
    }
  }

  /** The leads export: its pages read through the procedure, each further one charged a unit (see csvDownload). */
  function csvExport(ctx: Context, route: RestRoute, input: Record<string, string>, info: RequestInfo, admission: Extract<Admission, { ok: true }>, headOnly: boolean): Promise<Response> {
    return csvDownload({
      headOnly,
      slots: services.downloads,
      bucket: admission.principal.keyId,
      readPage: (cursor) => callProcedure(ctx, route.procedure, cursor === undefined ? input : { ...input, cursor }) as Promise<CsvPage>,
      charge: () => chargeMore(services, admission.principal, 1),
      info,
      cut: services.drain.cut,
      onError: (error) => logFailure(info, route, error),
      headers: rateLimitHeaders(admission.rate),
    });
  }

  /** The Idempotency-Key header of a POST that creates something (the procedure checks it); other routes ignore it. */
  function idempotencyRequest(route: RestRoute, request: Request): IdempotencyRequest | undefined {
    const key = route.idempotent ? request.headers.get(IDEMPOTENCY_KEY_HEADER) : null;
    return key === null ? undefined : { key, replayed: false, callerKey: bearerToken(request.headers.get("authorization")) };
  }

  function logFailure(info: RequestInfo, route: RestRoute, error: unknown): void {
    services.log.error("procedure failed", {
      requestId: info.requestId,
      route: route.path,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      cause: error instanceof Error && error.cause instanceof Error ? error.cause.stack : undefined,
    });
  }
}

/** The body's JSON text: the route's own serializer's, in its envelope, or JSON.stringify's (the same bytes either way). */
function answerText(route: RestRoute, result: unknown): string {
  if (route.json) {
    const text = route.json(result as never);
    return route.envelope === "data" ? `{"data":${text}}` : text;
  }
  return JSON.stringify(route.envelope === "data" ? { data: result } : result);
}

/** A directory read's input for its RenderedAnswer: as the route's schema made it, when the cache key needed that, else as the procedure would be handed it. */
function renderedInput(route: RestRoute, params: Record<string, string>, url: TargetUrl, parsedInput: ParsedInput): unknown {
  return parsedInput.data ?? queryInput(route, params, queryObject(url));
}

const DATA_OPEN = new TextEncoder().encode('{"data":');
const DATA_CLOSE = new TextEncoder().encode("}");

/** A rendered answer's JSON text in the route's envelope, as answerText would write it. */
function renderedBody(route: RestRoute, text: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (route.envelope !== "data") return text;
  const body = new Uint8Array(DATA_OPEN.byteLength + text.byteLength + DATA_CLOSE.byteLength);
  body.set(DATA_OPEN, 0);
  body.set(text, DATA_OPEN.byteLength);
  body.set(DATA_CLOSE, DATA_OPEN.byteLength + text.byteLength);
  return body;
}

/** A request that carries no body at all: no Content-Type and no length (or a length of 0). */
function sentNoBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return !request.headers.has("content-type") && (length === null || length === "0") && !request.headers.has("transfer-encoding");
}
