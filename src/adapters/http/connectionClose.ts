import type { Server } from "bun";

/**
 * Closes the connection soon after an answer the handler gave later (after an await), when the
 * client asked for that with `Connection: close`. Bun 1.3 honours the request's close only for
 * an answer given at once; after an await it keeps the socket open until the idle timeout
 * (120 s here), so a client waiting for the close (HTTP/1.0 style, scripts, probes) waits two
 * minutes, holding a descriptor (oven-sh/bun#35555). RFC 9112 §9.6 says the server MUST close.
 * The connection's own timeout is shortened to Bun's smallest (a second, on a clock with steps
 * of a few): it closes once the answer has gone out and the socket has sat idle that long.
 * Not for a streamed answer, which a short idle timeout would cut at its first slow read.
 */
export function closeSoonIfAsked(request: Request, server: Pick<Server<undefined>, "timeout">, streaming: boolean): void {
  if (streaming) return;
  const connection = request.headers.get("connection");
  if (connection !== null && /(^|,)\s*close\s*(,|$)/i.test(connection)) server.timeout(request, 1);
}
