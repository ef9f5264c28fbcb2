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

/** The error body of the REST and embed surfaces: `{ "error": "…" }`, plus field issues for 422. */
export function errorResponse(
  status: number,
  message: string,
  headers: HeadersInit = {},
  issues?: readonly { path: string; message: string }[],
): Response {
  return jsonResponse(issues && issues.length > 0 ? { error: message, issues } : { error: message }, status, headers);
}
