import { admit, type Admission } from "../../auth/admitRequest.ts";
import { DOWNLOAD_RETRY_AFTER_SECONDS } from "../../auth/downloadSlots.ts";
import type { Services } from "../../services.ts";
import type { ErrorCode as VocabularyCode } from "../../schemas/errorCodes.ts";
import { errorFields, retryAfterHeaders, statusOf, STORAGE_RETRY_AFTER_SECONDS, toPublicError } from "../errorVocabulary.ts";
import { admittedAnswers, rateLimitHeaders } from "../http/rateLimitHeaders.ts";
import type { ResponseBody } from "../http/json.ts";
import type { RequestInfo } from "../http/requestInfo.ts";
import type { McpCallContext } from "./callContext.ts";
import { classifyMessage, ErrorCode, errorEnvelope, McpProtocolError, resultEnvelope, resultEnvelopeBody, type JsonRpcId } from "./jsonRpc.ts";
import { answerRequest, type Answer } from "./methods.ts";
import { BATCH_VERSION, SUPPORTED_VERSIONS } from "./protocolVersions.ts";
import { acceptsJson, readMessageBody } from "./readMessageBody.ts";
import { chargeOrRefuse } from "./rateCharge.ts";
import { legacyHeaderVersion, requestEra, unsupportedVersion } from "./requestEra.ts";
import { renderBody } from "./streamedText.ts";
import { ToolResultCache } from "./toolResultCache.ts";
import { codedData } from "./unavailable.ts";
import { rebindingRefusal } from "../http/loopback.ts";
import { corsHeaders, isAllowedOrigin, isLoopbackBinding, preflightHeaders } from "./transportGuards.ts";

export interface McpHandlerOptions {
  /** Browser origins allowed to call /mcp, exactly as browsers send them (https://app.example). */
  allowedOrigins: readonly string[];
  /** The hostname the server is bound to: a loopback binding turns on the Host check. */
  boundHostname: string;
}

/** 2025-03-26 batches are answered one message after another; more than this is refused. */
const MAX_BATCH_MESSAGES = 20;

type HeaderMap = Record<string, string>;
/** No CORS headers (a request without Origin: agents): one object for all, only ever spread. */
const NO_HEADERS: HeaderMap = Object.freeze({});

/** The Content-Type of every JSON-RPC answer. */
const RPC_CONTENT_TYPE = "application/json";
/** JSON-RPC answers of admitted calls without CORS (agents send no Origin): see send below. */
const admittedRpc = admittedAnswers(RPC_CONTENT_TYPE);

/**
 * POST /mcp: a stateless Streamable HTTP MCP server answering in plain JSON. In order:
 * Host (DNS rebinding) → Origin → API key, scopes and rate limit (the same gate as REST) →
 * HTTP method → Accept / Content-Type / size → JSON → JSON-RPC → era rules → the method.
 * Each HTTP request gets one tRPC caller; every tool runs through it.
 */
export function createMcpHandler(services: Services, options: McpHandlerOptions) {
  const allowedOrigins = new Set(options.allowedOrigins);
  const toolResults = new ToolResultCache();
  services.caches.add(...toolResults.caches());
  const checkHost = isLoopbackBinding(options.boundHostname);

  return async function handleMcp(request: Request, info: RequestInfo): Promise<Response> {
    info.route = "/mcp";
    const origin = request.headers.get("origin");
    const rebinding = rebindingRefusal(request, checkHost);
    if (rebinding) return transportError(info, "host_not_allowed", rebinding);
    if (origin !== null && !isAllowedOrigin(origin, allowedOrigins, request.headers.get("host"))) {
      return transportError(info, "origin_not_allowed", `Origin ${JSON.stringify(origin?.slice(0, 200))} may not use /mcp. Agents call without an Origin; a page on this machine (http://localhost:…) may call a server reached as localhost; for any other browser client the operator adds its origin with --mcp-allowed-origins.`);
    }
    const cors = origin ? corsHeaders(origin) : NO_HEADERS;
    if (request.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: origin ? preflightHeaders(origin) : { Allow: "POST, OPTIONS" } });
    }

    // Awaited only when the key store answers later (a key not cached, over PostgreSQL).
    const admitting = admit(services, { authorization: request.headers.get("authorization"), origin, surface: "mcp", client: info });
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (!admission.ok) return refusal(admission, cors, info);
    info.keyId = admission.principal.keyId;
    // Built only for the answers that need them (the common one takes a ready set: see send).
    const headers = (): HeaderMap => ({ ...cors, ...rateLimitHeaders(admission.rate) });

    if (request.method !== "POST") {
      return transportError(info, "method_not_allowed", `${request.method} is not used here: this MCP server is stateless (no SSE stream, no sessions) and answers POST only.`, { ...headers(), Allow: "POST" });
    }
    if (!acceptsJson(request.headers.get("accept"))) {
      return transportError(info, "not_acceptable", "Accept must allow application/json (MCP clients send 'Accept: application/json, text/event-stream').", headers());
    }
    const body = await readMessageBody(request);
    if (!body.ok) return rpcResponse(body.status, errorEnvelope(null, { code: body.code, message: body.message, data: codedData(body.errorCode, info.requestId) }), headers());

    const principal = admission.principal;
    const context: McpCallContext = {
      era: "legacy",
      services,
      principal,
      procedureContext: { services, principal, surface: "mcp", requestId: info.requestId, baseUrl: info.baseUrl },
      baseUrl: info.baseUrl,
      toolResults,
      rate: admission.rate,
      streamed: [],
      logFailure: (message, error) =>
        services.log.error(message, {
          requestId: info.requestId,
          route: "/mcp",
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          cause: error instanceof Error && error.cause instanceof Error ? error.cause.stack : undefined,
        }),
    };
    // The RateLimit headers say what is left after every message and read was charged.
    let rendered = false;
    // `retryAfterSeconds`: what the failure itself asks for (a busy lock 5 s, a storage fault 30 s).
    const send = (status: number, serialized: ResponseBody, retryAfterSeconds?: number) => {
      rendered = true;
      // The common answer (nothing streamed, no CORS, every charge allowed, not a 503 or 429) takes
      // one ready header set: the same headers, without three object spreads and a promise.
      if (context.streamed.length === 0 && origin === null && context.rate?.allowed && status !== 503 && status !== 429) {
        return admittedRpc(serialized, status, context.rate, info);
      }
      let ended!: (bytes: number) => void;
      const streaming = new Promise<number>((resolve) => (ended = resolve));
      // Bytes are a cached tool result's envelope, which holds no streamed text: whatever was streamed is let go.
      if (typeof serialized !== "string") for (const text of context.streamed) text.release();
      const body = typeof serialized !== "string" ? serialized : renderBody(serialized, context.streamed, {
        socket: info.socket,
        cut: services.drain.cut,
        onError: (error) => context.logFailure("streaming a response failed", error),
        onEnd: ended,
      });
      // A streamed body outlives this handler: graceful stop waits for it (see InFlightResponses).
      if (body instanceof ReadableStream) info.streaming = streaming;
      return rpcResponse(status, body, {
        ...headers(),
        ...rateLimitHeaders(context.rate),
        ...(status === 503 ? { "Retry-After": String(retryAfterSeconds ?? STORAGE_RETRY_AFTER_SECONDS) } : {}),
        // A 429 the rate limit allowed: the key's downloads were all in progress.
        ...(status === 429 && context.rate?.allowed ? { "Retry-After": String(DOWNLOAD_RETRY_AFTER_SECONDS) } : {}),
      });
    };

    try {
      // After the body, a cached tool result is answered without a further promise.
      const answered = answerMessages(body.value, request, context, send, headers);
      return answered instanceof Promise ? await answered : answered;
    } finally {
      // A directory read whose answer was never rendered (a fault on the way) gives its download slot back.
      if (!rendered) for (const text of context.streamed) text.release();
    }
  };
}

/** The parsed body: one message, or a 2025-03-26 batch. */
function answerMessages(
  value: unknown,
  request: Request,
  context: McpCallContext,
  send: (status: number, serialized: ResponseBody, retryAfterSeconds?: number) => Response,
  headers: () => HeaderMap,
): Response | Promise<Response> {
  if (Array.isArray(value)) return answerBatch(value, request.headers, context, send, headers);

  const message = classifyMessage(value);
  if ("invalid" in message) return send(400, errorEnvelope(null, { code: ErrorCode.INVALID_REQUEST, message: `Invalid Request: ${message.invalid}` }));
  if (message.kind !== "request") {
    // Notifications and responses need no answer. Nothing here needs their content, but
    // a version we do not speak is still refused, as for requests.
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !SUPPORTED_VERSIONS.includes(version)) {
      return send(400, errorEnvelope(null, unsupportedVersion(version).toErrorObject()));
    }
    return new Response(null, { status: 202, headers: headers() });
  }
  try {
    context.era = requestEra(message.method, message.params, request.headers);
  } catch (error) {
    if (!(error instanceof McpProtocolError)) throw error;
    return send(error.httpStatus, errorEnvelope(message.id, error.toErrorObject()));
  }
  const answer = answerRequest(message.method, message.params, context);
  return answer instanceof Promise ? answer.then((settled) => sendAnswer(message.id, settled, send)) : sendAnswer(message.id, answer, send);
}

function sendAnswer(id: JsonRpcId, answer: Answer, send: (status: number, serialized: ResponseBody, retryAfterSeconds?: number) => Response): Response {
  if ("result" in answer) return send(200, resultEnvelopeBody(id, answer.result));
  return send(answer.httpStatus, envelope(id, answer), retryAfterOf(answer.error.data));
}

/**
 * JSON-RPC batches were part of MCP in 2025-03-26 only (which also had no protocol version
 * header, so a request without one is taken as 2025-03-26, as the spec says to).
 */
async function answerBatch(
  items: unknown[],
  requestHeaders: Headers,
  context: McpCallContext,
  send: (status: number, serialized: string) => Response,
  headers: () => HeaderMap,
): Promise<Response> {
  const invalid = (message: string) => send(400, errorEnvelope(null, { code: ErrorCode.INVALID_REQUEST, message: `Invalid Request: ${message}` }));
  if (items.length === 0) return invalid("an empty JSON array is not a message.");
  if (legacyHeaderVersion(requestHeaders) !== BATCH_VERSION) {
    return invalid("JSON-RPC batches are not part of MCP since 2025-06-18: send one message per POST.");
  }
  if (items.length > MAX_BATCH_MESSAGES) return invalid(`a batch may hold at most ${MAX_BATCH_MESSAGES} messages.`);

  const answers: string[] = [];
  // Each request of the batch is charged like a request of its own: admission paid for the
  // first; past the key's budget a message gets -31429 and the others still run.
  let admittedOne = false;
  for (const item of items) {
    const message = classifyMessage(item);
    if ("invalid" in message) answers.push(errorEnvelope(null, { code: ErrorCode.INVALID_REQUEST, message: `Invalid Request: ${message.invalid}` }));
    else if (message.kind !== "request") continue;
    else if (message.method === "initialize") {
      answers.push(errorEnvelope(message.id, { code: ErrorCode.INVALID_REQUEST, message: "initialize must not be part of a JSON-RPC batch." }));
    } else {
      if (admittedOne) {
        try {
          await chargeOrRefuse(context, 1);
        } catch (error) {
          if (!(error instanceof McpProtocolError)) throw error;
          answers.push(errorEnvelope(message.id, error.toErrorObject()));
          continue;
        }
      }
      admittedOne = true;
      answers.push(envelope(message.id, await answerRequest(message.method, message.params, context)));
    }
  }
  if (answers.length === 0) return new Response(null, { status: 202, headers: headers() });
  return send(200, `[${answers.join(",")}]`);
}

function envelope(id: JsonRpcId, answer: Answer): string {
  return "result" in answer ? resultEnvelope(id, answer.result) : errorEnvelope(id, answer.error);
}

function rpcResponse(status: number, body: ResponseBody | ReadableStream<Uint8Array>, headers: HeaderMap = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": RPC_CONTENT_TYPE, "Cache-Control": "no-store", ...headers } });
}

/** Refusals before any message is read: a JSON-RPC error without an id, with the code's status. */
function transportError(info: RequestInfo, code: VocabularyCode, message: string, headers: HeaderMap = {}): Response {
  return rpcResponse(statusOf(code), errorEnvelope(null, { code: ErrorCode.INVALID_REQUEST, message, data: codedData(code, info.requestId) }), headers);
}

/**
 * The key gate's refusals. 401 carries a plain Bearer challenge and an OAuth-style body and
 * no resource_metadata: this server takes API keys and runs no OAuth, and advertising it
 * would send OAuth-capable clients into a discovery flow that cannot succeed.
 */
function refusal(admission: Extract<Admission, { ok: false }>, cors: HeaderMap, info: RequestInfo): Response {
  const failure = toPublicError(admission.error);
  const headers = { ...cors, ...rateLimitHeaders(admission.rate) };
  if (failure.status === 429) {
    const data = codedData(failure.code, info.requestId, admission.rate ? { retryAfterSeconds: admission.rate.resetSeconds } : {});
    return rpcResponse(429, errorEnvelope(null, { code: ErrorCode.RATE_LIMITED, message: failure.message, data }), headers);
  }
  if (failure.status === 401) {
    // OAuth's `error` word (what an MCP host reads), then the vocabulary's fields as on REST.
    const body = { error: "invalid_token", error_description: failure.message, ...errorFields(failure.code, info.requestId) };
    return new Response(JSON.stringify(body), {
      status: 401,
      headers: { "Content-Type": RPC_CONTENT_TYPE, "Cache-Control": "no-store", "WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"', ...headers },
    });
  }
  return transportError(info, failure.code, failure.message, { ...headers, ...retryAfterHeaders(failure) });
}

/** The wait a JSON-RPC error's data asks for (`data.retryAfterSeconds`), if any. */
function retryAfterOf(data: unknown): number | undefined {
  if (typeof data !== "object" || data === null || !("retryAfterSeconds" in data)) return undefined;
  return typeof data.retryAfterSeconds === "number" ? data.retryAfterSeconds : undefined;
}
