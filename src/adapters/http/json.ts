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

/** The error body of the REST and embed surfaces: `{ "error": "…" }`, plus field issues for 422. */
export function errorResponse(
  status: number,
  message: string,
  headers: HeadersInit = {},
  issues?: readonly { path: string; message: string }[],
): Response {
  return jsonResponse(issues && issues.length > 0 ? { error: message, issues } : { error: message }, status, headers);
}
