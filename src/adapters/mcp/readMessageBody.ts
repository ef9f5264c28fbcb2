import { MAX_BODY_BYTES } from "../http/readJsonBody.ts";
import { ErrorCode } from "./jsonRpc.ts";

export type BodyReading = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/**
 * Reads a POSTed JSON-RPC body: `application/json` (any parameters, e.g. charset) or 415; at
 * most 64 KiB like every body of this API, or 413; then JSON, or 400 with -32700. REST says
 * 422 for malformed JSON; JSON-RPC has its own code for it, and MCP clients expect it.
 */
export async function readMessageBody(request: Request): Promise<BodyReading> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return refuse(415, ErrorCode.INVALID_REQUEST, `Send JSON-RPC messages with 'Content-Type: application/json' (got ${type ? JSON.stringify(type.slice(0, 100)) : "no Content-Type"}).`);
  }
  const tooLarge = () => refuse(413, ErrorCode.INVALID_REQUEST, `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) return tooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) return tooLarge();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refuse(400, ErrorCode.PARSE_ERROR, "Parse error: the body is not valid UTF-8.");
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 200) : "invalid JSON";
    return refuse(400, ErrorCode.PARSE_ERROR, `Parse error: the body is not valid JSON (${detail}).`);
  }
}

function refuse(status: number, code: number, message: string): BodyReading {
  return { ok: false, status, code, message };
}

/**
 * Streamable HTTP clients must accept both JSON and SSE, but real ones send either alone;
 * refuse only an Accept that rules out JSON entirely (406).
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  return accept
    .split(",")
    .map((range) => range.split(";")[0]!.trim().toLowerCase())
    .some((range) => range === "application/json" || range === "text/event-stream" || range === "*/*" || range === "application/*");
}
