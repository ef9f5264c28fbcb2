import { CodedError, type ErrorCode } from "../../schemas/errorCodes.ts";
import { readJsonText, type JsonTextReading } from "./readJsonText.ts";

export { MAX_BODY_BYTES } from "./readJsonText.ts";

const CODE_BY_PROBLEM = {
  "content-type": "unsupported_media_type",
  "too-large": "payload_too_large",
  aborted: "client_closed_request",
  "not-utf8": "invalid_json",
  empty: "invalid_json",
  "not-json": "invalid_json",
} as const satisfies Record<Extract<JsonTextReading, { ok: false }>["problem"], ErrorCode>;

/**
 * Reads a REST JSON body under the shared rules (readJsonText): 415 for another type, 413 over
 * 64 KiB, 422 for a body that is empty, not UTF-8 or not JSON, 499 for one cut short. Returns
 * the parsed value.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const reading = await readJsonText(request);
  if (!reading.ok) throw new CodedError(CODE_BY_PROBLEM[reading.problem], reading.message);
  return reading.value;
}
