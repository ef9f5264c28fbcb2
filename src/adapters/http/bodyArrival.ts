import type { Server } from "bun";
import { errorResponse, type ErrorAsker } from "./json.ts";
import { declaresBody, MAX_BODY_BYTES, readBodyBytes } from "./readBodyBytes.ts";
import { BODY_ABORTED_MESSAGE } from "./readJsonText.ts";

type Timeouts = Pick<Server<undefined>, "timeout">;

/**
 * A request body must have arrived whole within the body deadline (BODY_TIMEOUT_SECONDS) of
 * the request's arrival, as Bun already holds headers to one: a client sending a byte every
 * few seconds holds a descriptor no longer than that. The deadline is the connection's own
 * timeout in Bun (server.timeout), which a body's bytes do not reset and which Bun enforces on a
 * connection whose body is still coming: it closes it, and the read of the body then fails
 * ("aborted", a 499). It does not run while a handler works on a body that arrived, and the
 * usual idle timeout is restored before the answer is sent, so a long answer is not cut.
 *
 * A body the handler did not read (an early refusal: no key, wrong type) is read here before
 * the answer goes out, so that the request stays in flight, counted for its client
 * (ClientSlots), as long as its connection is busy with the body: refused or not, a slow body
 * holds one of its client's slots. Only a declared length over 64 KiB is not waited for: it
 * is refused without a read, and the deadline closes its connection if the body keeps coming.
 */
export class BodyArrival {
  constructor(
    private readonly deadlineSeconds: number,
    private readonly idleSeconds: number,
  ) {}

  /** At arrival: whether the request has a body, which then has the deadline from now. */
  start(request: Request, server: Timeouts): boolean {
    if (!declaresBody(request)) return false;
    server.timeout(request, this.deadlineSeconds);
    return true;
  }

  /**
   * Once a request that has a body is answered: its body read if nobody did, then the answer.
   * A body the handler read is done with: the answer is handed on at once, without a promise.
   */
  settle(request: Request, response: Response, server: Timeouts, asker: ErrorAsker): Response | Promise<Response> {
    if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) return response;
    if (request.bodyUsed) return this.idleAgain(request, response, server);
    return readBodyBytes(request).then((bytes) => (bytes === "aborted" ? errorResponse(asker, "client_closed_request", BODY_ABORTED_MESSAGE) : this.idleAgain(request, response, server)));
  }

  private idleAgain(request: Request, response: Response, server: Timeouts): Response {
    server.timeout(request, this.idleSeconds);
    return response;
  }
}
