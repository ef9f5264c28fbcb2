import { TRPCError } from "@trpc/server";
import { readJsonText } from "./readJsonText.ts";

export { MAX_BODY_BYTES } from "./readJsonText.ts";

const CODE_BY_PROBLEM = {
  "content-type": "UNSUPPORTED_MEDIA_TYPE",
  "too-large": "PAYLOAD_TOO_LARGE",
  aborted: "CLIENT_CLOSED_REQUEST",
  "not-utf8": "UNPROCESSABLE_CONTENT",
  empty: "UNPROCESSABLE_CONTENT",
  "not-json": "UNPROCESSABLE_CONTENT",
} as const;

/**
 * Reads a REST JSON body under the shared rules (readJsonText): 415 for another type, 413 over
 * 64 KiB, 422 for a body that is empty, not UTF-8 or not JSON, 499 for one cut short. Returns
 * the parsed value.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const reading = await readJsonText(request);
  if (!reading.ok) throw new TRPCError({ code: CODE_BY_PROBLEM[reading.problem], message: reading.message });
  return reading.value;
}
