import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh connection (fetch would refuse or
 * rewrite a bad Host, an absurd target or a lying Content-Length). Reads until the server closes.
 */
export function rawRequest(url: string, head: string, body = ""): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [headText = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = headText.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n") });
    });
  });
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
