/**
 * A client that sends `Connection: close` sees the connection closed after its answer, also when
 * the answer came after an await (a write; over PostgreSQL, any keyed request). Bun 1.3 kept such a
 * socket open until the idle timeout, 120 s, holding a descriptor all that time (see
 * src/adapters/http/connectionClose.ts).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { parseRawResponse } from "../support/rawHttp.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
  key = await server.createKey({ workspace: "close", scopes: ["leads:write", "brokers:read"] });
});
afterAll(() => server.close());

/** Writes `request` on a fresh socket; resolves with what came back and when the server closed it. */
function closedAfter(request: string, withinMs: number): Promise<{ text: string; ms: number | "still open" }> {
  const { port } = new URL(server.url);
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(request));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString("utf8"), ms: "still open" });
    }, withinMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started });
    });
  });
}

// Bun's connection timeouts tick in steps of a few seconds: the close comes within about 4 s.
test("a write answered after an await, asked with Connection: close, closes its connection within seconds", async () => {
  const body = JSON.stringify({ name: "Marie Tremblay", email: "close@example.ca", phone: "(416) 555-0199", insuranceType: "Auto" });
  const { text, ms } = await closedAfter(
    [
      "POST /api/v1/leads HTTP/1.1",
      "Host: 127.0.0.1",
      `Authorization: Bearer ${key}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
    10_000,
  );
  expect(parseRawResponse(text).status).toBe(201);
  expect(ms).not.toBe("still open");
}, 20_000);

test("a keep-alive connection is kept: a second request on it is answered", async () => {
  const { port } = new URL(server.url);
  const get = `GET /api/v1/brokers?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`;
  const statuses = await new Promise<number[]>((resolve) => {
    let text = "";
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(get));
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const answers = text.split("HTTP/1.1 ").length - 1;
      if (answers === 1 && text.endsWith("}")) socket.write(get);
      if (answers === 2 && text.endsWith("}")) {
        socket.destroy();
        resolve([...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1])));
      }
    });
  });
  expect(statuses).toEqual([200, 200]);
});
