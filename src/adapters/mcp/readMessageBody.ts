import type { ErrorCode as VocabularyCode } from "../../schemas/errorCodes.ts";
import { CLIENT_CLOSED_REQUEST } from "../errorVocabulary.ts";
import { readBodyBytes } from "../http/readBodyBytes.ts";
import { contentTypeRefusal, parseJsonBytes, type JsonTextReading } from "../http/readJsonText.ts";
import { ErrorCode } from "./jsonRpc.ts";

/** A refused body: its HTTP status, its JSON-RPC code and its code in the vocabulary. */
export type BodyReading = { ok: true; value: unknown } | { ok: false; status: number; code: number; errorCode: VocabularyCode; message: string };

/**
 * Reads a POSTed JSON-RPC body: `application/json` (any parameters, e.g. charset) or 415; at
 * most 64 KiB like every body of this API, or 413; then JSON, or 400 with -32700. REST says
 * 422 for malformed JSON; JSON-RPC has its own code for it, and MCP clients expect it. A body
 * cut short is a 499 nobody reads, counted as the client's abort.
 */
export function readMessageBody(request: Request): Promise<BodyReading> {
  // readJsonText's rules, in one step once the bytes are in (a promise fewer per call).
  const refused = contentTypeRefusal(request);
  if (refused) return Promise.resolve(toMessageBody(refused));
  return readBodyBytes(request).then((bytes) => toMessageBody(parseJsonBytes(bytes)));
}

function toMessageBody(reading: JsonTextReading): BodyReading {
  if (reading.ok) return reading;
  switch (reading.problem) {
    case "content-type":
      return refuse(415, ErrorCode.INVALID_REQUEST, "unsupported_media_type", reading.message.replace("Send the body as JSON", "Send JSON-RPC messages"));
    case "too-large":
      return refuse(413, ErrorCode.INVALID_REQUEST, "payload_too_large", reading.message);
    case "aborted":
      return refuse(CLIENT_CLOSED_REQUEST, ErrorCode.INVALID_REQUEST, "client_closed_request", reading.message);
    default:
      return refuse(400, ErrorCode.PARSE_ERROR, "invalid_json", `Parse error: ${reading.message.replace(/^The/, "the")}`);
  }
}

function refuse(status: number, code: number, errorCode: VocabularyCode, message: string): BodyReading {
  return { ok: false, status, code, errorCode, message };
}

/**
 * Streamable HTTP clients must accept both JSON and SSE, but real ones send either alone;
 * refuse only an Accept that rules out JSON entirely (406).
 */
export function acceptsJson(accept: string | null): boolean {
  // What MCP clients send, answered without splitting it.
  if (accept === null || accept === "application/json, text/event-stream" || accept === "application/json") return true;
  if (accept.trim() === "") return true;
  return accept
    .split(",")
    .map((range) => range.split(";")[0]!.trim().toLowerCase())
    .some((range) => range === "application/json" || range === "text/event-stream" || range === "*/*" || range === "application/*");
}
