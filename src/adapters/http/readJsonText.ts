import { MAX_BODY_BYTES, readBodyBytes, type BodyReading } from "./readBodyBytes.ts";

export { MAX_BODY_BYTES };

/** Stateless between calls (no `stream` option), so one decoder serves every request. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export type JsonTextReading =
  | { ok: true; value: unknown }
  | { ok: false; problem: "content-type" | "too-large" | "aborted" | "not-utf8" | "empty" | "not-json"; message: string };

/** What a request whose body was cut short is answered, for the log and metrics: the client is gone. */
export const BODY_ABORTED_MESSAGE = "The connection closed before the body arrived whole.";

/**
 * The body rules every surface of this API shares: `application/json` only (any parameters),
 * at most 64 KiB (counted while reading: readBodyBytes), UTF-8, and
 * well-formed JSON. Returns the problem as a value; each adapter picks its own status and code
 * (REST 415/413/422, JSON-RPC 415/413/400 with -32700). A body cut short is "aborted", which
 * every surface counts as 499 (client closed request): nobody is left to read the answer.
 */
export function readJsonText(request: Request): Promise<JsonTextReading> {
  const refused = contentTypeRefusal(request);
  return refused ? Promise.resolve(refused) : readBodyBytes(request).then(parseJsonBytes);
}

/** The Content-Type rule, checked before any byte is read: the refusal, or undefined for JSON. */
export function contentTypeRefusal(request: Request): JsonTextReading | undefined {
  const type = request.headers.get("content-type") ?? "";
  if (/^application\/json\s*(;|$)/i.test(type)) return undefined;
  return {
    ok: false,
    problem: "content-type",
    message: `Send the body as JSON with 'Content-Type: application/json' (got ${type ? JSON.stringify(type.slice(0, 100)) : "no Content-Type"}).`,
  };
}

/** The rest of the rules, on the bytes read (or why there are none). */
export function parseJsonBytes(bytes: BodyReading): JsonTextReading {
  if (bytes === "too-large") return { ok: false, problem: "too-large", message: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.` };
  if (bytes === "aborted") return { ok: false, problem: "aborted", message: BODY_ABORTED_MESSAGE };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, problem: "not-utf8", message: "The body is not valid UTF-8 text." };
  }
  if (text.trim() === "") return { ok: false, problem: "empty", message: "The body is empty; send a JSON object." };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 200) : "parse error";
    return { ok: false, problem: "not-json", message: `The body is not valid JSON (${detail}).` };
  }
}
