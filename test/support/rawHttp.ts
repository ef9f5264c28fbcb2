import { connect } from "node:net";
import { childExit } from "./childExit.ts";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh connection (fetch would refuse or
 * rewrite a bad Host, an absurd target or a lying Content-Length). Reads until the server
 * closes, or until the answer's Content-Length is in (the server may keep the socket a few
 * seconds more: see connectionClose.ts).
 */
export function rawRequest(url: string, head: string, body = ""): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    let settled = false;
    const answer = () => {
      const response = parseRawResponse(Buffer.concat(chunks).toString("utf8"));
      const length = response.headers["content-length"];
      return { response, whole: length !== undefined && Buffer.byteLength(response.body) >= Number(length) };
    };
    const settle = (response: RawResponse) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(response);
    };
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const { response, whole } = answer();
      if (whole) settle(response);
    });
    socket.on("error", reject);
    socket.on("close", () => settle(answer().response));
  });
}

/** Status, headers (lower-case names) and body of a raw HTTP/1.1 answer. */
export function parseRawResponse(text: string): RawResponse {
  const [headText = "", ...rest] = text.split("\r\n\r\n");
  const [statusLine = "", ...headerLines] = headText.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n") };
}

/**
 * A request whose client goes away mid-body: `head` (request line and headers, a
 * Content-Length among them, no blank line), then `bytes` bytes of body, then the socket is
 * closed. Resolves once it is.
 */
export function abortedUpload(url: string, head: string, bytes: number): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${"x".repeat(bytes)}`, () => socket.destroy()));
    socket.on("error", () => {}); // a reset from the server is the same end
    socket.on("close", () => resolve());
  });
}

export interface SlowBody {
  /** Whatever the server sent back, once the connection closed. */
  closed: Promise<{ text: string; ms: number }>;
  /** Stops sending and closes the connection. */
  close(): void;
  /** This end's port, once connected: names the connection in /proc/net/tcp. */
  localPort(): number | undefined;
}

/** A request whose body arrives one byte every `everyMs` and never ends: `head` as in abortedUpload. */
export function slowBody(url: string, head: string, everyMs: number): SlowBody {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\nx`));
  const drip = setInterval(() => socket.writable && socket.write("x"), everyMs);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => {});
  const closed = new Promise<{ text: string; ms: number }>((resolve) =>
    socket.on("close", () => {
      clearInterval(drip);
      resolve({ text: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started });
    }),
  );
  // Kept at connect: a closed socket no longer says.
  let localPort: number | undefined;
  socket.on("connect", () => (localPort = socket.localPort));
  return { closed, close: () => socket.destroy(), localPort: () => localPort };
}

/**
 * GET `url`, or POST `json` to it, from another loopback address (any of 127/8 on Linux), as
 * another client would: Bun's sockets cannot choose their source address, curl can. Status and body.
 */
export async function requestFrom(localAddress: string, url: string, json?: string): Promise<{ status: number; body: string }> {
  const post = json === undefined ? [] : ["-H", "Content-Type: application/json", "--data-binary", json];
  const curl = Bun.spawn(["curl", "-sS", "--interface", localAddress, "-w", "\n%{http_code}", ...post, url], { stdout: "pipe", stderr: "ignore" });
  const out = await new Response(curl.stdout).text();
  await childExit(curl);
  const cut = out.lastIndexOf("\n");
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

export interface StalledReader {
  /** The bytes of the answer read so far (the first few, before the reader stopped). */
  received(): number;
  /** Closes the connection, as a client that gives up does. */
  close(): void;
}

/**
 * A slow reader at its worst: writes one request, then reads nothing more, so the server's
 * answer piles up wherever the server keeps it (the kernel's buffers fill first, then the
 * server's own). The socket is paused in the connect callback: paused earlier, Bun ignores it.
 */
export function stalledRequest(url: string, head: string, body = ""): Promise<StalledReader> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = 0;
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
      socket.pause();
      resolve({ received: () => received, close: () => socket.destroy() });
    });
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    socket.on("error", reject);
  });
}
