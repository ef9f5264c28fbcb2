/** Bodies of this API are 64 KiB at most, on every surface. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The one reader of request bodies: counts bytes as they arrive and keeps none past `max`,
 * so a chunked body, which declares no length, is held to the same limit as one with
 * Content-Length. A declared length over the limit is
 * refused before anything is read.
 */
export async function readBodyBytes(request: Request, max = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer> | "too-large"> {
  const declared = request.headers.get("content-length");
  if (Number(declared ?? "0") > max) return "too-large";
  // A declared length within the limit bounds the body (HTTP/1.1 reads exactly that many
  // bytes): read it whole, natively. Reading it chunk by chunk through a stream reader cost a
  // fifth of an MCP call. A chunked body (no length) is counted as it arrives, below.
  if (declared !== null && !request.headers.has("transfer-encoding")) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    // Past the limit the rest is read and dropped, not kept: leaving it unread would leave
    // the connection mid-body, and its next request would be parsed from that garbage.
    // Bun itself cuts any body at its maxRequestBodySize (see server.ts), which bounds the draining.
    if (total > max) parts.length = 0;
    else parts.push(value);
  }
  if (total > max) return "too-large";
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}
