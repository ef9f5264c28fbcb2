import { errorFields, issuesIn, statusOf, type PublicError } from "../errorVocabulary.ts";
import { inLanguage, type MessageFacts } from "../frenchErrors.ts";
import type { ErrorCode } from "../../schemas/errorCodes.ts";
import type { Language } from "../../schemas/language.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A JSON response with the headers every API answer carries. */
export function jsonResponse(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/** The same, for a body already serialized (e.g. from a response cache). */
export function jsonText(text: string, status = 200, headers: HeadersInit = {}): Response {
  return new Response(text, {
    status,
    headers: { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store", ...headers },
  });
}

/** A body our answers are made from: text, or the UTF-8 bytes of a text sent many times (utf8Body). */
export type ResponseBody = string | Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();

/**
 * A body's text as the UTF-8 bytes a Response sends, for answers sent many times (cached
 * directory answers, /healthz): a Response made from bytes sends them as they are, while one
 * made from a string encodes it again on every request. That cost a hot answer about 3 µs: a
 * bare Bun.serve answering a 7 KB list did 75 k req/s from the string, 98 k from its bytes.
 */
export function utf8Body(text: string): Exclude<ResponseBody, string> {
  return encoder.encode(text);
}

/** stampedJsonText's headers, refilled per answer (see admittedJson for why one set is reused). */
const stampedHeaders = new Headers({ "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store", "X-Request-Id": "" });

/**
 * A 200 JSON answer with its request id among its headers from the start (the front door is
 * told, and does not add it afterwards): for answers on the hot path, e.g. /healthz.
 */
export function stampedJsonText(text: ResponseBody, info: { requestId: string; requestIdSent?: boolean }): Response {
  info.requestIdSent = true;
  stampedHeaders.set("X-Request-Id", info.requestId);
  return new Response(text, { headers: stampedHeaders });
}

/** Who asked, as an error answer needs it: the request's id, and the language it asked for. */
export interface ErrorAsker {
  requestId: string;
  language?: Language;
}

/**
 * The error body of the REST, embed and console surfaces and of the front door: the
 * specification's `{ "error": "…" }`, then `code` (the one vocabulary), `requestId` (also the
 * X-Request-Id header) and `docs` (the code's entry in the manual), plus field issues for 422.
 * The status is the code's (statusOf); `error` is French when the request asked for it.
 */
export function errorResponse(
  asker: ErrorAsker,
  code: ErrorCode,
  message: string,
  headers: HeadersInit = {},
  issues?: readonly { path: string; message: string }[],
): Response {
  const error = asker.language === "fr" ? inLanguage("fr", code, message, factsOf(headers, issues)) : message;
  const body = { error, ...errorFields(code, asker.requestId), ...(issues && issues.length > 0 ? { issues } : {}) };
  return jsonResponse(body, statusOf(code), headers);
}

/** A failure of the error vocabulary (toPublicError) as an error answer: its issues in the asked language too. */
export function failureResponse(asker: ErrorAsker, failure: PublicError, headers: HeadersInit = {}): Response {
  return errorResponse(asker, failure.code, failure.message, headers, issuesIn(asker.language, failure));
}

function factsOf(headers: HeadersInit, issues: readonly { path: string }[] | undefined): MessageFacts {
  const retryAfter = new Headers(headers).get("retry-after");
  return { fields: issues?.map((i) => i.path) ?? [], ...(retryAfter === null ? {} : { retryAfterSeconds: Number(retryAfter) }) };
}
