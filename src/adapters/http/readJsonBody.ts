import { TRPCError } from "@trpc/server";

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body under the API's rules: `application/json` only (415), at most
 * 64 KiB (413, checked on the declared length and again on the bytes read), and well-formed
 * (422 with the parser's complaint). Returns the parsed value.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new TRPCError({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: `Send the body as JSON with 'Content-Type: application/json' (got ${type ? JSON.stringify(type.slice(0, 100)) : "no Content-Type"}).`,
    });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: "The body is not valid UTF-8 text." });
  }
  if (text.trim() === "") throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: "The body is empty; send a JSON object." });
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 200) : "parse error";
    throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `The body is not valid JSON (${detail}).` });
  }
}

function tooLarge(): TRPCError {
  return new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.` });
}
