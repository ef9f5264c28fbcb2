import { whileConnected } from "./whileConnected.ts";

/** Bodies of this API are 64 KiB at most, on every surface. */
export const MAX_BODY_BYTES = 64 * 1024;

export type BodyReading = Uint8Array<ArrayBuffer> | "too-large" | "aborted";

/** Whether a request carries a body to wait for: a length over zero, or a chunked one. */
export function declaresBody(request: Request): boolean {
  const declared = request.headers.get("content-length");
  return (declared !== null && declared !== "0") || request.headers.has("transfer-encoding");
}

/**
 * The one reader of request bodies: counts bytes as they arrive and keeps none past `max`,
 * so a chunked body, which declares no length, is held to the same limit as one with
 * Content-Length. A declared length over the limit is refused before anything is read.
 * A body cut short (the client closed the connection, or the body deadline did: see
 * bodyArrival.ts) is "aborted": the read always settles, so the request always ends.
 */
export function readBodyBytes(request: Request, max = MAX_BODY_BYTES): Promise<BodyReading> {
  const declared = request.headers.get("content-length");
  if (Number(declared ?? "0") > max) return Promise.resolve("too-large");
  try {
    // A declared length within the limit bounds the body (HTTP/1.1 reads exactly that many
    // bytes): read it whole, natively. Reading it chunk by chunk through a stream reader cost a
    // fifth of an MCP call. Nothing may touch `request.body` first: after that, Bun 1.3 never
    // settles arrayBuffer() when the client goes away mid-body, and the request (its bytes
    // with it) stays pending forever. A chunked body (no length) is counted as it arrives.
    // Not an async function: a promise and a turn fewer per body (most bodies are read whole).
    // A body shorter than its declared length is one whose client left mid-upload: Bun may
    // settle the read with the bytes that came (seen in CI) rather than reject it.
    if (declared !== null && !request.headers.has("transfer-encoding")) {
      const length = Number(declared);
      return whileConnected(request, request.arrayBuffer()).then((buffer) => (buffer.byteLength < length ? "aborted" : new Uint8Array(buffer)), aborted);
    }
    return readCounted(request, max).catch(aborted);
  } catch {
    return Promise.resolve("aborted");
  }
}

const aborted = () => "aborted" as const;

async function readCounted(request: Request, max: number): Promise<Uint8Array<ArrayBuffer> | "too-large"> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await whileConnected(request, reader.read());
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
